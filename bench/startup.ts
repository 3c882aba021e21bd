/**
 * `npm run bench:startup`: time from spawn to ready and resident memory of each production process,
 * started the way they ran before (`npx tsx <entry>.ts`) and compiled (`node dist/<entry>.js`), in the
 * same run, alternating. Needs `npm run build`. Its own database (switchyard_bench_startup), Redis
 * prefix and free ports; STARTUP_RUNS (default 5) starts per process and mode; prints a table and
 * writes bench/results/startup.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createWorkerRedis } from '../server/redis';
import { processTree, productPorts } from '../test/support/processes';
import { childEnv, newAuthSecret } from './config';
import { clearRedis, dropDatabase, prepareDatabase } from './setup';

const ROOT = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/switchyard_bench_startup';
const REDIS_PREFIX = 'bench-startup';
const READY_TIMEOUT_MS = 60_000;
/** Memory is read once the process has been idle this long after it became ready. */
const SETTLE_MS = 2000;

type Mode = 'tsx' | 'compiled';

interface Target {
  name: string;
  entry: string;
  readyUrls: (ports: Ports) => string[];
}

interface Ports {
  web: number;
  api: number;
  workerHealth: number;
  simulatorBase: number;
}

const local = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;
const TARGETS: Target[] = [
  {
    name: 'web (Next, custom server)',
    entry: 'server/http/web-server',
    readyUrls: (p) => [local(p.web, '/api/health/ready')],
  },
  { name: 'lean API', entry: 'server/http/lean-server', readyUrls: (p) => [local(p.api, '/api/health/ready')] },
  { name: 'worker', entry: 'workers/main', readyUrls: (p) => [local(p.workerHealth, '/')] },
  {
    name: 'simulators',
    entry: 'server/providers/simulators-main',
    readyUrls: (p) => [0, 1, 2, 3].map((i) => local(p.simulatorBase + i, '/__sim/state')),
  },
];

function command(mode: Mode, entry: string): [string, string[]] {
  return mode === 'tsx' ? ['npx', ['tsx', `${entry}.ts`]] : [process.execPath, [`dist/${entry}.js`]];
}

function rssKiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const ok = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(1000) })
    .then((r) => r.ok)
    .catch(() => false);

async function stopGroup(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-(child.pid as number), 'SIGTERM');
  } catch {}
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {}
  }, 25_000);
  await exited;
  clearTimeout(timer);
}

interface Sample {
  readyMs: number;
  /** The process running the entry itself. */
  serverRssMiB: number;
  /** Everything the start command left running: npx, the tsx CLI and its esbuild service included. */
  treeRssMiB: number;
  processes: number;
}

async function measure(mode: Mode, target: Target, env: Record<string, string>, ports: Ports): Promise<Sample> {
  const [cmd, args] = command(mode, target.entry);
  const started = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, env: childEnv(env), stdio: 'ignore', detached: true });
  try {
    const urls = target.readyUrls(ports);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await Promise.all(urls.map(ok))).every(Boolean)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${target.name} (${mode}) never got ready`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const tree = processTree(child.pid as number);
    const server = tree.findLast((p) => p.command.includes(`${target.entry}.`));
    const mib = (kib: number) => kib / 1024;
    return {
      readyMs,
      serverRssMiB: mib(server ? rssKiB(server.pid) : 0),
      treeRssMiB: mib(tree.reduce((sum, p) => sum + rssKiB(p.pid), 0)),
      processes: tree.length,
    };
  } finally {
    await stopGroup(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function main() {
  await prepareDatabase(DATABASE_URL);
  const { range: simulatorBase, ...singles } = await productPorts(['web', 'api', 'workerHealth'], 4);
  const ports: Ports = { ...singles, simulatorBase };
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    AUTH_SECRET: newAuthSecret(),
    RATE_LIMIT_HASH_KEY: newAuthSecret(),
    DATABASE_URL,
    REDIS_PREFIX,
    HOST: '127.0.0.1',
    PORT: String(ports.web),
    API_PORT: String(ports.api),
    WORKER_HEALTH_PORT: String(ports.workerHealth),
    SIMULATOR_BASE_PORT: String(ports.simulatorBase),
  };
  const loadAtStart = loadavg();
  const rows = [];
  for (const target of TARGETS) {
    const samples: Record<Mode, Sample[]> = { tsx: [], compiled: [] };
    for (let run = 0; run < RUNS; run++) {
      for (const mode of ['tsx', 'compiled'] as const) samples[mode].push(await measure(mode, target, env, ports));
    }
    for (const mode of ['tsx', 'compiled'] as const) {
      const s = samples[mode];
      rows.push({
        process: target.name,
        mode,
        readyMs: Math.round(median(s.map((x) => x.readyMs))),
        serverRssMiB: Math.round(median(s.map((x) => x.serverRssMiB))),
        treeRssMiB: Math.round(median(s.map((x) => x.treeRssMiB))),
        processes: median(s.map((x) => x.processes)),
      });
    }
  }
  const redis = createWorkerRedis('redis://127.0.0.1:6379');
  await clearRedis(redis, [REDIS_PREFIX]);
  redis.disconnect();
  await dropDatabase(DATABASE_URL);
  const load = [loadAtStart, loadavg()].map((l) => l.map((x) => x.toFixed(1)).join(' ')).join(' → ');
  console.log(
    `median of ${RUNS} starts each; RSS read ${SETTLE_MS} ms after ready; ${cpus().length} cores, load ${load}`,
  );
  console.log(
    '| process | started as | ready (ms) | RSS of the server process (MiB) | RSS of everything started (MiB) | processes |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const how = r.mode === 'tsx' ? '`npx tsx …ts`' : '`node dist/…js`';
    console.log(`| ${r.process} | ${how} | ${r.readyMs} | ${r.serverRssMiB} | ${r.treeRssMiB} | ${r.processes} |`);
  }
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  writeFileSync(
    `${ROOT}bench/results/startup.json`,
    JSON.stringify({ at: new Date().toISOString(), runs: RUNS, node: process.version, load, rows }, null, 2),
  );
}

await main();
