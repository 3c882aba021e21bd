/** The soak's size, ports and targets: one place, read once from the environment. */
const seconds = Number(process.env.SOAK_SECONDS ?? 600);
if (!Number.isFinite(seconds) || seconds < 30) throw new Error('SOAK_SECONDS must be a number of seconds, at least 30');

/** The figures issue targets name for a full (10-minute) run; shorter runs aim at their share. */
export const FULL_RUN_SECONDS = 600;
export const TARGETS = { raceLocks: 10_000, fuzzRequests: 100_000, chaosEachKind: 2 } as const;
const share = Math.min(1, seconds / FULL_RUN_SECONDS);

export const SOAK = {
  seconds,
  /** Every private port sits in one range: Postgres, Redis, two web processes, two workers, four simulators. */
  ports: {
    postgres: 46432,
    redis: 46379,
    webs: [46080, 46081],
    workerHealth: [46090, 46091],
    simulatorBase: 46100,
  },
  root: '/tmp/switchyard-soak',
  redisPrefix: 'soak',
  quota: {
    raceLocks: Math.ceil(TARGETS.raceLocks * share),
    fuzzRequests: Math.ceil(TARGETS.fuzzRequests * share),
  },
  /** Executes sent at each lock at once, and locks raced at once. */
  raceParallel: 20,
  racingLocks: Number(process.env.SOAK_RACING_LOCKS ?? 6),
  fuzzConcurrency: Number(process.env.SOAK_FUZZ_CONCURRENCY ?? 12),
  /** Swap flows (quote → lock → execute → track) in flight at once. */
  swapFlows: Number(process.env.SOAK_SWAP_FLOWS ?? 4),
  /** How long the books wait for every swap to settle after the load stops. */
  settleTimeoutMs: 180_000,
  /** An outage window stays open this long after the product answers ready again. */
  outageGraceMs: 3_000,
  rateLimit: { windowSeconds: 10, catalog: 400, quote: 4_000, execute: 10_000, transactions: 10_000 },
} as const;

export type SoakConfig = typeof SOAK;
