import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { TestApp } from './app';
import { childEnv, exitWithin, freePort, httpOk, waitUntil } from './processes';

const ROOT = new URL('../..', import.meta.url).pathname;
const NEXT_BUILD_LOCK = '/tmp/switchyard-e2e.lock';

/**
 * The compiled web process needs `next build` output (made here, once, when there is none; `npm run build`
 * refreshes it) and the server entry compiled from the current source.
 */
export function ensureWebBuild(): void {
  if (!existsSync(`${ROOT}.next/BUILD_ID`)) {
    const build = spawnSync('flock', [NEXT_BUILD_LOCK, 'sh', '-c', '[ -f .next/BUILD_ID ] || npx next build'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    if (build.status !== 0) throw new Error('next build failed');
  }
  if (spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT }).status !== 0) {
    throw new Error('building dist/ failed');
  }
}

export interface BuiltWeb {
  child: ChildProcess;
  baseUrl: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The web process as production runs it (Next behind `server/http/web-server.ts`, compiled), on its own
 * port, sharing the test app's database, Redis prefix and simulators.
 */
export async function startBuiltWeb(t: TestApp, overrides: Record<string, string> = {}): Promise<BuiltWeb> {
  const port = await freePort();
  const env = {
    ...t.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    AUTH_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_HASH_KEY: randomBytes(32).toString('hex'),
    SHUTDOWN_TIMEOUT_MS: '5000',
    ...overrides,
  };
  const child = spawn(process.execPath, ['dist/server/http/web-server.js'], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: 'ignore',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const up = await waitUntil(async () => child.exitCode !== null || (await httpOk(`${baseUrl}/api/health`)()), {
    timeoutMs: 90_000,
    intervalMs: 200,
  });
  if (!up || child.exitCode !== null) throw new Error(`the web process did not start (exit ${child.exitCode})`);
  return {
    child,
    baseUrl,
    env,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if ((await exitWithin(child, 10_000)) === undefined) child.kill('SIGKILL');
    },
  };
}
