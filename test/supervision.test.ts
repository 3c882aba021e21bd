import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { isPortFree, listen } from '../server/lifecycle';
import { cloneTemplate, databaseUrl, testDatabaseName } from './support/databases';
import { ETH_TO_BTC } from './support/fixtures';
import { randomHex } from './support/flows';
import {
  exitWithin,
  freePort,
  freePortRange,
  httpOk,
  isRunning,
  type ProcessInfo,
  processTree,
  productPorts,
  waitUntil,
} from './support/processes';
import { deletePrefixKeys, newTestRedisPrefix } from './support/redis-prefixes';

/**
 * The product as an operator runs it: `npm run up` (through npm, bash and exec, exactly as typed) and
 * `npm run start:*`, on the compiled output, each run on its own database, Redis prefix and free ports.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const SHUTDOWN_TIMEOUT_MS = 8000;
/** The runner kills whatever still runs this long after a stop began. */
const STOP_BOUND_MS = SHUTDOWN_TIMEOUT_MS + 2000;
const START_TIMEOUT_MS = 120_000;
const NEXT_BUILD_LOCK = '/tmp/switchyard-e2e.lock';

interface Run {
  child: ChildProcess;
  output: () => string;
  /** The processes below the top pid once it was up, for cleaning up after a failed test. */
  tree: ProcessInfo[];
}

const redisPrefixes: string[] = [];
const started: Run[] = [];

/** A Redis prefix of this file's own, deleted with its keys once the file is done. */
function newRedisPrefix() {
  const prefix = newTestRedisPrefix();
  redisPrefixes.push(prefix);
  return prefix;
}

function spawnNpm(args: string[], env: Record<string, string>): Run {
  const child = spawn('npm', args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const run: Run = { child, output: () => output, tree: [] };
  started.push(run);
  return run;
}

async function productEnv() {
  const redisPrefix = newRedisPrefix();
  const database = testDatabaseName('db', redisPrefix);
  const picked = await productPorts(['web', 'worker'], 4);
  const env = {
    DATABASE_URL: databaseUrl(database),
    REDIS_PREFIX: redisPrefix,
    HOST: '127.0.0.1',
    PORT: String(picked.web),
    WORKER_HEALTH_PORT: String(picked.worker),
    SIMULATOR_BASE_PORT: String(picked.range),
    PROVIDERS_MODE: 'simulated',
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    // info: a start that never becomes ready shows what each process said.
    LOG_LEVEL: 'info',
    TRACKING_TIME_SCALE: '0.05',
    TRACKING_MIN_INTERVAL_MS: '100',
  };
  const simBase = Number(env.SIMULATOR_BASE_PORT);
  const urls = {
    web: `http://127.0.0.1:${env.PORT}`,
    worker: `http://127.0.0.1:${env.WORKER_HEALTH_PORT}/`,
    relay: `http://127.0.0.1:${simBase + 1}`,
  };
  const ports = [Number(env.PORT), Number(env.WORKER_HEALTH_PORT), simBase, simBase + 1, simBase + 2, simBase + 3];
  return { env, urls, ports, database };
}
type Product = Awaited<ReturnType<typeof productEnv>>;

/** What a readiness probe answered, for a start that never became ready. */
async function probe(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return `${res.status} ${(await res.text()).slice(0, 300)}`;
  } catch (error) {
    return `no answer: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function startUp(product: Product): Promise<Run> {
  const run = spawnNpm(['run', 'up', '--', '--no-build'], product.env);
  const ready = await waitUntil(
    async () =>
      run.child.exitCode !== null ||
      ((await httpOk(`${product.urls.web}/api/health/ready`)()) &&
        (await httpOk(product.urls.worker)()) &&
        (await httpOk(`${product.urls.relay}/__sim/state`)())),
    { timeoutMs: START_TIMEOUT_MS, intervalMs: 200 },
  );
  if (!ready || run.child.exitCode !== null) {
    const probes = {
      web: await probe(`${product.urls.web}/api/health/ready`),
      worker: await probe(product.urls.worker),
      relay: await probe(`${product.urls.relay}/__sim/state`),
      exitCode: run.child.exitCode,
    };
    expect.fail(`not ready within ${START_TIMEOUT_MS} ms: ${JSON.stringify(probes)}\n${run.output()}`);
  }
  run.tree = processTree(run.child.pid as number);
  return run;
}

const stillRunning = (tree: ProcessInfo[]) => tree.filter((p) => isRunning(p.pid));
async function takenPorts(ports: number[]) {
  const free = await Promise.all(ports.map((port) => isPortFree(port, '127.0.0.1')));
  return ports.filter((_, i) => !free[i]);
}

async function postJson(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function swapThroughRelay(product: Product) {
  const locked = await postJson(`${product.urls.web}/api/v1/quote/lock`, { ...ETH_TO_BTC, provider: 'RELAY' });
  expect(locked.status, JSON.stringify(locked.body)).toBe(200);
  const executed = await postJson(`${product.urls.web}/api/v1/quote/execute`, { lockId: locked.body.data.lockId });
  expect(executed.status, JSON.stringify(executed.body)).toBe(200);
  const transactionId = executed.body.data.transaction.id as string;
  // The swapper's wallet sent the deposit: the simulated chain hears of it through track.
  const tracked = await postJson(`${product.urls.web}/api/v1/transaction/track`, {
    transactionId,
    txHash: `0x${randomHex()}`,
  });
  expect(tracked.status, JSON.stringify(tracked.body)).toBe(200);
  return transactionId;
}

async function relayCalls(product: Product, kind: 'quote' | 'status') {
  const state = (await (await fetch(`${product.urls.relay}/__sim/state`)).json()) as { log: { kind: string }[] };
  return state.log.filter((entry) => entry.kind === kind).length;
}

beforeAll(() => {
  if (!existsSync(`${ROOT}.next/BUILD_ID`)) {
    const build = spawnSync('flock', [NEXT_BUILD_LOCK, 'sh', '-c', '[ -f .next/BUILD_ID ] || npx next build'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    expect(build.status).toBe(0);
  }
  expect(spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT }).status).toBe(0);
}, 600_000);

afterEach(() => {
  for (const run of started.splice(0)) {
    const leftovers = stillRunning([...run.tree, ...processTree(run.child.pid as number)]);
    for (const pid of new Set(leftovers.map((p) => p.pid))) process.kill(pid, 'SIGKILL');
  }
});

afterAll(async () => {
  for (const prefix of redisPrefixes) await deletePrefixKeys(prefix);
});

describe('npm run up', () => {
  it('on SIGTERM to its top pid finishes in-flight work, then leaves no process and no port behind', async () => {
    const product = await productEnv();
    const run = await startUp(product);
    const tree = run.tree;
    const below = tree.slice(1).map((p) => p.command.replace(ROOT, ''));
    expect(below.sort()).toEqual([
      `${process.execPath} dist/server/http/web-server.js`,
      `${process.execPath} dist/server/providers/simulators-main.js`,
      `${process.execPath} dist/workers/main.js`,
      'node dist/scripts/run-all.js',
    ]);

    const settled = await swapThroughRelay(product);
    const success = await waitUntil(async () => {
      const res = await fetch(`${product.urls.web}/api/v1/transaction/status?transactionId=${settled}`);
      return res.ok && ((await res.json()) as any).data.transaction.status === 'SUCCESS';
    });
    expect(success).toBe(true);

    await fetch(`${product.urls.relay}/__sim/config`, {
      method: 'PUT',
      body: JSON.stringify({ faults: { quote: 'slow', status: 'slow' }, slowMs: 1500, settleAfterPolls: 50 }),
    });
    const polled = await swapThroughRelay(product);
    const quotesBefore = await relayCalls(product, 'quote');
    const quote = postJson(`${product.urls.web}/api/v1/quote`, ETH_TO_BTC);
    const inFlight = await waitUntil(
      async () => (await relayCalls(product, 'quote')) > quotesBefore && (await relayCalls(product, 'status')) > 0,
    );
    expect(inFlight).toBe(true);

    process.kill(run.child.pid as number, 'SIGTERM');
    const answered = await quote;
    expect(answered.status).toBe(200);
    expect(answered.body.data.some((route: { provider: string }) => route.provider === 'RELAY')).toBe(true);
    expect(await exitWithin(run.child, STOP_BOUND_MS), run.output()).toBe(0);
    expect(stillRunning(tree)).toEqual([]);
    expect(await takenPorts(product.ports)).toEqual([]);

    const sql = postgres(product.env.DATABASE_URL, { max: 1 });
    const [row] = await sql`select poll_attempts, last_poll_error from transactions where id = ${polled}`;
    await sql.end();
    expect(row?.poll_attempts).toBeGreaterThanOrEqual(1);
    expect(row?.last_poll_error).toBeNull();
  }, 240_000);

  it('stops every other process and exits non-zero when one of them crashes', async () => {
    const product = await productEnv();
    const run = await startUp(product);
    const tree = run.tree;
    const worker = tree.find((p) => p.command.includes('/dist/workers/main.js'));
    process.kill(worker?.pid as number, 'SIGKILL');

    const code = await exitWithin(run.child, STOP_BOUND_MS);
    expect(code).toBeDefined();
    expect(code).not.toBe(0);
    expect(run.output()).toContain('worker exited (SIGKILL); stopping the rest');
    expect(stillRunning(tree)).toEqual([]);
    expect(await takenPorts(product.ports)).toEqual([]);
  }, 240_000);

  it('leaves nothing behind even when the runner itself is killed', async () => {
    const product = await productEnv();
    const run = await startUp(product);
    const runner = run.tree.find((p) => p.command.includes('dist/scripts/run-all.js'));
    process.kill(runner?.pid as number, 'SIGKILL');

    expect(await exitWithin(run.child, STOP_BOUND_MS)).not.toBe(0);
    expect(await waitUntil(() => stillRunning(run.tree).length === 0, { timeoutMs: STOP_BOUND_MS })).toBe(true);
    expect(await takenPorts(product.ports)).toEqual([]);
  }, 240_000);

  it('refuses a second start while the first runs, naming each taken port and the setting that moves it', async () => {
    const product = await productEnv();
    const first = await startUp(product);
    const second = spawnNpm(['run', 'up', '--', '--no-build'], product.env);

    expect(await exitWithin(second.child, START_TIMEOUT_MS)).toBe(1);
    const simBase = Number(product.env.SIMULATOR_BASE_PORT);
    for (const message of [
      `port ${product.env.PORT} is in use; set PORT to another port`,
      `port ${product.env.WORKER_HEALTH_PORT} is in use; set WORKER_HEALTH_PORT to another port`,
      `port ${simBase} is in use; set SIMULATOR_BASE_PORT to another port`,
    ]) {
      expect(second.output()).toContain(message);
    }
    expect(second.output()).not.toMatch(/^\s+at /m);
    expect(await httpOk(`${product.urls.web}/api/health/ready`)()).toBe(true);

    process.kill(first.child.pid as number, 'SIGTERM');
    expect(await exitWithin(first.child, STOP_BOUND_MS)).toBe(0);
  }, 240_000);
});

describe('npm run start:*', () => {
  let databaseUrlForProcesses: string;
  beforeAll(async () => {
    const name = testDatabaseName('db', `start${randomBytes(4).toString('hex')}`);
    databaseUrlForProcesses = await cloneTemplate(inject('templateDatabase'), name);
  });
  const processEnv = (overrides: Record<string, string>): Record<string, string> => ({
    DATABASE_URL: databaseUrlForProcesses,
    REDIS_PREFIX: newRedisPrefix(),
    NODE_ENV: 'production',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_HASH_KEY: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    ...overrides,
  });

  it.each([
    ['start:web', 'PORT'],
    ['start:api', 'API_PORT'],
    ['start:worker', 'WORKER_HEALTH_PORT'],
  ])(
    'npm run %s names a taken port and %s, without a stack trace',
    async (script, setting) => {
      const blocker = createServer();
      const port = await listen(blocker, 0, '127.0.0.1');
      try {
        const run = spawnNpm(['run', script], processEnv({ [setting]: String(port) }));
        expect(await exitWithin(run.child, START_TIMEOUT_MS), run.output()).toBe(1);
        expect(run.output()).toContain(`port ${port} is in use; set ${setting} to another port`);
        expect(run.output()).not.toMatch(/^\s+at /m);
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    },
    180_000,
  );

  it('the simulators name a taken port and SIMULATOR_BASE_PORT', async () => {
    const base = await freePortRange(4);
    const blocker = createServer();
    await listen(blocker, base + 2, '127.0.0.1');
    try {
      const child = spawn(process.execPath, ['dist/server/providers/simulators-main.js'], {
        cwd: ROOT,
        env: { ...process.env, ...processEnv({ SIMULATOR_BASE_PORT: String(base) }) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk) => {
        stderr += chunk;
      });
      expect(await exitWithin(child, START_TIMEOUT_MS)).toBe(1);
      expect(stderr.trim()).toBe(`[simulators] port ${base + 2} is in use; set SIMULATOR_BASE_PORT to another port`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('npm run start:api drains and frees its port on SIGTERM to its top pid', async () => {
    const port = await freePort();
    const run = spawnNpm(['run', 'start:api'], processEnv({ API_PORT: String(port) }));
    expect(await waitUntil(httpOk(`http://127.0.0.1:${port}/api/health`), { timeoutMs: START_TIMEOUT_MS })).toBe(true);
    const tree = processTree(run.child.pid as number);
    expect(tree.map((p) => p.command)).toEqual([
      'npm run start:api',
      expect.stringMatching(/^node dist\/server\/http\/lean-server\.js$/),
    ]);

    process.kill(run.child.pid as number, 'SIGTERM');
    expect(await exitWithin(run.child, STOP_BOUND_MS), run.output()).toBe(0);
    expect(stillRunning(tree)).toEqual([]);
    expect(await isPortFree(port, '127.0.0.1')).toBe(true);
  }, 180_000);
});
