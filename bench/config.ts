/** What a bench run is told through the environment, and the app environment it gives the servers it starts. */
import { randomBytes } from 'node:crypto';
import { type Simulators, simulatorEnv } from '../server/providers/simulators';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/**
 * `BENCH_RUN_NAME` keeps a run's database, Redis keys and results apart from another run's on the
 * same machine (two engineers benchmarking sections at once would otherwise drop each other's database).
 */
const RUN_NAME = process.env.BENCH_RUN_NAME ?? '';
if (!/^[a-z0-9_]{0,20}$/.test(RUN_NAME)) throw new Error('bench: BENCH_RUN_NAME must be up to 20 of a-z, 0-9, _');
const RUN_SUFFIX = RUN_NAME ? `_${RUN_NAME}` : '';
export const BENCH_DATABASE = `switchyard_bench${RUN_SUFFIX}`;
export const REDIS_PREFIX = `bench${RUN_SUFFIX}`;
export const WEBHOOKS_PREFIX = `bench-webhooks${RUN_SUFFIX}`;
export const TRACK_PREFIX = `bench-track${RUN_SUFFIX}`;
export const MEMORY_PREFIX = `bench-mem${RUN_SUFFIX}`;
/** Every Redis prefix a run writes under; all of them are cleared before and after. */
export const REDIS_PREFIXES = [REDIS_PREFIX, TRACK_PREFIX, MEMORY_PREFIX, WEBHOOKS_PREFIX] as const;
export const RATE_LIMIT_OFF = '1000000000';

export interface BenchSettings {
  /** Multiplies every duration and loop count: 1 is the full run, 0.2 a quick smoke run. */
  scale: number;
  databaseUrl: string;
  redisUrl: string;
  keepDatabase: boolean;
  /** Concurrent keep-alive connections for the throughput runs. */
  connections: number;
  /** Leave Next out of the HTTP section (a profiling run of the lean server needs no build). */
  skipNext: boolean;
  /** How long the Next server may wait for the shared build lock. */
  nextLockWaitSeconds: number;
  /** The whole run is stopped past this, whatever it is doing. */
  budgetMs: number;
  /** `npm run bench:gate`: exit non-zero when a hot-path ratio falls under half its target, or a section fails. */
  gate: boolean;
  resultsPath: string;
}

function loopbackUrl(raw: string, what: string): URL {
  const url = new URL(raw);
  if (!LOOPBACK.has(url.hostname)) throw new Error(`bench: ${what} must be on loopback, not ${url.hostname}`);
  return url;
}

function positive(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`bench: ${name} must be a positive number`);
  return value;
}

export function benchSettings(source: Record<string, string | undefined>): BenchSettings {
  const db = loopbackUrl(source.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432', 'Postgres');
  db.pathname = `/${BENCH_DATABASE}`;
  const redis = loopbackUrl(source.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', 'Redis');
  const scale = Math.min(4, positive(source.BENCH_SCALE, 1, 'BENCH_SCALE'));
  return {
    scale,
    databaseUrl: db.toString(),
    redisUrl: redis.toString(),
    keepDatabase: source.BENCH_KEEP_DB === '1',
    connections: Math.round(positive(source.BENCH_CONNECTIONS, 10, 'BENCH_CONNECTIONS')),
    skipNext: source.BENCH_SKIP_NEXT === '1',
    nextLockWaitSeconds: positive(source.BENCH_NEXT_LOCK_WAIT_S, 150, 'BENCH_NEXT_LOCK_WAIT_S'),
    budgetMs: positive(source.BENCH_BUDGET_S, 1800, 'BENCH_BUDGET_S') * 1000,
    gate: source.BENCH_GATE === '1',
    resultsPath: new URL(
      `./results/${source.BENCH_GATE === '1' ? 'gate' : 'latest'}${RUN_SUFFIX}.json`,
      import.meta.url,
    ).pathname,
  };
}

/** A scaled duration in ms, never below `minMs`. */
export const scaledMs = (settings: BenchSettings, seconds: number, minMs = 500) =>
  Math.max(minMs, Math.round(seconds * 1000 * settings.scale));

/** A scaled count, never below `min`. */
export const scaledCount = (settings: BenchSettings, count: number, min = 1) =>
  Math.max(min, Math.round(count * settings.scale));

/**
 * The environment every server under test is configured from: the bench database and Redis
 * prefix, the in-process simulators, and rate limits high enough never to answer 429 (the
 * limiter still runs; its own cost is measured in the rate-limiter section).
 */
export function appEnv(settings: BenchSettings, sims: Simulators, authSecret: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    AUTH_SECRET: authSecret,
    // One key per run, shared by its processes as the secret is.
    RATE_LIMIT_HASH_KEY: `${authSecret}-rate-limit-hash-key`,
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    REDIS_PREFIX: REDIS_PREFIX,
    PROVIDER_DEADLINE_MS: '1000',
    QUOTE_CACHE_MS: '0',
    RATE_LIMIT_CATALOG: RATE_LIMIT_OFF,
    RATE_LIMIT_QUOTE: RATE_LIMIT_OFF,
    RATE_LIMIT_EXECUTE: RATE_LIMIT_OFF,
    RATE_LIMIT_TRANSACTIONS: RATE_LIMIT_OFF,
    // The history section's load comes from one address on several connections: the per-client cap is not what it measures.
    HISTORY_READS_PER_CLIENT: RATE_LIMIT_OFF,
    RATE_LIMIT_DASHBOARD: RATE_LIMIT_OFF,
    MAX_CONNECTIONS_PER_CLIENT: RATE_LIMIT_OFF,
    ...simulatorEnv(sims),
  };
}

export const newAuthSecret = () => randomBytes(32).toString('hex');

/** A child's whole environment: only what it needs to run, plus the app's settings. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  return out as NodeJS.ProcessEnv;
}
