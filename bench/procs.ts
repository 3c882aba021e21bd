/** Child processes the bench starts (and only those): TypeScript children over IPC, and the Next server. */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { freePort } from '../test/support/processes';

const ROOT = new URL('..', import.meta.url).pathname;
export const NEXT_BUILD_LOCK = '/tmp/switchyard-e2e.lock';

/** Keeps the last lines a child printed, for the report when it fails. */
function tail(child: ChildProcess, lines: string[], max = 40) {
  const push = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line.slice(0, 400));
      if (lines.length > max) lines.shift();
    }
  };
  child.stdout?.on('data', push);
  child.stderr?.on('data', push);
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export interface ChildHandle {
  name: string;
  pid: number;
  /** What the child sent with its ready message (ports and the like). */
  info: Record<string, unknown>;
  output: string[];
  request<T>(message: object, id: number, timeoutMs: number): Promise<T>;
  send(message: object): void;
  stop(): Promise<void>;
}

/** Forks a TypeScript module (through tsx) and waits for its `{ ready: true }` message. */
export async function startChild(
  name: string,
  modulePath: string,
  args: string[],
  { env, readyTimeoutMs = 30_000 }: { env: NodeJS.ProcessEnv; readyTimeoutMs?: number },
): Promise<ChildHandle> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const child = fork(modulePath, args, {
    cwd: ROOT,
    env,
    execArgv: ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${name}`] : [])],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output: string[] = [];
  tail(child, output);
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('exit', (code, signal) => {
    for (const w of waiting.values()) w.reject(new Error(`${name} exited (${code ?? signal}): ${output.join(' | ')}`));
    waiting.clear();
  });

  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} not ready in ${readyTimeoutMs} ms: ${output.join(' | ')}`)),
      readyTimeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before ready: ${output.join(' | ')}`));
    });
    child.on('message', (message: { ready?: boolean; id?: number; result?: unknown; error?: string }) => {
      if (message.ready) {
        clearTimeout(timer);
        resolve(message as Record<string, unknown>);
        return;
      }
      const w = message.id !== undefined ? waiting.get(message.id) : undefined;
      if (!w) return;
      waiting.delete(message.id as number);
      if (message.error !== undefined) w.reject(new Error(`${name}: ${message.error}`));
      else w.resolve(message.result);
    });
  }).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });

  return {
    name,
    pid: child.pid as number,
    info,
    output,
    send: (message) => child.send(message),
    request<T>(message: object, id: number, timeoutMs: number) {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${name}: no answer in ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v as T);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        child.send(message);
      });
    },
    async stop() {
      if (child.connected) child.send({ type: 'exit', id: 0 });
      if (!(await waitForExit(child, 10_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    },
  };
}

/** What `next build` bundles into `.next`: a change to any of these makes the build stale. */
const BUNDLED_SOURCES = 'app server drizzle next.config.mjs tsconfig.json package-lock.json';

export interface NextHandle {
  port: number;
  /** The process group the server runs in (flock, sh and node). */
  pid: number;
  output: string[];
  stop(): Promise<void>;
}

/**
 * The built app on the custom server, started under the same lock the e2e build takes, so nobody
 * rebuilds `.next` underneath it; builds first when `.next` is missing or older than any source it
 * bundles (a stale build would measure code that is no longer there).
 */
export async function startNext(
  env: NodeJS.ProcessEnv,
  {
    lockWaitSeconds = 150,
    readyTimeoutMs = 60_000,
    /** Another server started by `startNext` is running: it holds the lock, so the build cannot change; start beside it. */
    besideRunning = false,
  } = {},
) {
  const port = await freePort();
  const profileDir = process.env.BENCH_CPU_PROF;
  const profile = profileDir ? ` --cpu-prof --cpu-prof-dir='${profileDir.replaceAll("'", '')}/next'` : '';
  const fresh = `[ -f .next/BUILD_ID ] && [ -z "$(find ${BUNDLED_SOURCES} -newer .next/BUILD_ID -print -quit)" ]`;
  const script = `${fresh} || npx next build; exec node${profile} --import tsx server/http/web-server.ts`;
  const command = besideRunning
    ? ['sh', ['-c', `exec node${profile} --import tsx server/http/web-server.ts`]]
    : ['flock', ['-w', String(lockWaitSeconds), NEXT_BUILD_LOCK, 'sh', '-c', script]];
  const child = spawn(command[0] as string, command[1] as string[], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', NEXT_TELEMETRY_DISABLED: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  tail(child, output);
  const group = child.pid as number;
  const stop = async () => {
    try {
      process.kill(-group, 'SIGTERM');
    } catch {
      return;
    }
    if (!(await waitForExit(child, 10_000))) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {}
      await waitForExit(child, 5_000);
    }
  };

  const deadline = Date.now() + lockWaitSeconds * 1000 + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `next exited (${child.exitCode}) before ready: ${output.join(' | ') || 'build lock not acquired'}`,
      );
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return { port, pid: group, output, stop } satisfies NextHandle;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`next not ready in time: ${output.join(' | ')}`);
}
