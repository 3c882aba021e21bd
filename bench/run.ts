/**
 * `npm run bench`: the six measurements of shared/design/performance.md and webhook isolation, each against a baseline
 * measured in the same run, on loopback only, bounded in time, stopping by itself. Prints a table
 * and writes bench/results/latest.json. Exits non-zero only on a correctness violation.
 *
 * BENCH_SCALE (default 1; 0.2 for a smoke run) scales every duration and loop count. The `scale`
 * section (a year of data, see bench/scale.ts) adds its own budget, BENCH_SCALE_BUDGET_S.
 * BENCH_DATABASE_URL / BENCH_REDIS_URL point at the servers (database `switchyard_bench` is
 * recreated each run and dropped at the end unless BENCH_KEEP_DB=1). BENCH_ONLY=http,quote,…
 * runs a subset. BENCH_GATE=1 (`npm run bench:gate`) judges the hot-path ratios against half their targets.
 */
import { cpus, loadavg } from 'node:os';
import { benchSettings } from './config';
import { executeSection } from './execute';
import { exportSection } from './export';
import { historySection } from './history';
import { httpSection } from './http';
import { quoteSection } from './quote';
import { rateLimitSection } from './ratelimit';
import { Report } from './report';
import { scaleSection } from './scale';
import { type Bench, startBench } from './setup';
import { tracingSection } from './tracing';
import { trackingSection } from './tracking';
import { webhooksSection } from './webhooks';

const SECTIONS: [string, (b: Bench) => Promise<void>][] = [
  ['http', httpSection],
  ['quote', quoteSection],
  ['ratelimit', rateLimitSection],
  ['execute', executeSection],
  ['tracking', trackingSection],
  ['history', historySection],
  ['tracing', tracingSection],
  ['webhooks', webhooksSection],
  ['export', exportSection],
  ['scale', scaleSection],
];

const settings = benchSettings(process.env);
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const report = new Report();
const startedAt = new Date();
const loadAtStart = loadavg();
let bench: Bench | undefined;
let finishing: Promise<never> | undefined;

async function versions(b: Bench) {
  const [pg] = await b.sql<{ v: string }[]>`show server_version`;
  const info = await b.redis.info('server');
  return { postgres: pg?.v, redis: /redis_version:(\S+)/.exec(info)?.[1] };
}

function finish(reason: string): Promise<never> {
  finishing ??= (async () => {
    if (reason !== 'done') report.failed('run', reason);
    report.print();
    const meta = {
      startedAt: startedAt.toISOString(),
      durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
      scale: settings.scale,
      machine: {
        cpus: cpus().length,
        node: process.version,
        loadAverageAtStart: loadAtStart.map((l) => Math.round(l * 100) / 100),
        loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
        ...(bench ? await versions(bench).catch(() => ({})) : {}),
      },
      setup:
        'loopback only; the load generator is a child process of its own and each server under test runs in its own ' +
        'process, but all share the same cores (the generator competes with the server for CPU); ratios come from ' +
        'interleaved rounds in one run',
      connections: settings.connections,
    };
    report.write(settings.resultsPath, meta);
    console.log(`\nwrote ${settings.resultsPath}`);
    await bench?.close().catch((error) => console.error('cleanup:', error));
    const refused = settings.gate
      ? [...report.failures.map((f) => `${f.section} failed`), ...report.gateFailures()]
      : [];
    if (settings.gate) {
      console.log(refused.length ? `\nbench gate FAILED:\n  ${refused.join('\n  ')}` : '\nbench gate passed');
    }
    process.exit(report.violations.length || refused.length ? 1 : 0);
  })();
  return finishing;
}

const budgetMs =
  (!only || only.some((name) => name !== 'scale') ? settings.budgetMs : 0) +
  (!only || only.includes('scale') ? Number(process.env.BENCH_SCALE_BUDGET_S ?? 3 * 3600) * 1000 : 0);
const watchdog = setTimeout(() => void finish(`time budget of ${budgetMs / 1000} s exceeded`), budgetMs);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void finish(`stopped by ${signal}`));

console.log(`bench: scale ${settings.scale}, ${settings.connections} connections, database ${settings.databaseUrl}`);
try {
  bench = await startBench(settings, report);
} catch (error) {
  report.failed('setup', error);
  await finish('done');
}
for (const [name, section] of SECTIONS) {
  if (only && !only.includes(name)) continue;
  const t0 = Date.now();
  console.log(`\n== ${name}`);
  try {
    await section(bench as Bench);
  } catch (error) {
    report.failed(name, error);
  }
  bench?.resetSimulators();
  console.log(`   (${Math.round((Date.now() - t0) / 1000)} s)`);
}
await finish('done');
