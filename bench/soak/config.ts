/** The soak's size, ports and targets: one place, read once from the environment. */
const seconds = Number(process.env.SOAK_SECONDS ?? 600);
if (!Number.isFinite(seconds) || seconds < 30) throw new Error('SOAK_SECONDS must be a number of seconds, at least 30');

/** The first of the 1,000 loopback ports the soak's servers use (46000–46999 by default). */
const portBase = Number(process.env.SOAK_PORT_BASE ?? 46_000);
if (!Number.isInteger(portBase) || portBase < 1024 || portBase > 64_000)
  throw new Error('SOAK_PORT_BASE must be a port number between 1024 and 64000');

/**
 * The floors for a full (10-minute) run. A shorter run must reach its share of them
 * (SOAK_SECONDS / 600 of each, so SOAK_SECONDS=120 needs 2,000 locks and 20,000 fuzz cases); a run of
 * 600 s or longer needs the floors themselves. A run that misses a floor fails.
 */
export const FULL_RUN_SECONDS = 600;
export const TARGETS = { raceLocks: 10_000, fuzzRequests: 100_000, chaosEachKind: 2 } as const;
const share = Math.min(1, seconds / FULL_RUN_SECONDS);

/**
 * `single`: one Postgres and one Redis, as `npm run up`. `scaled`: a Redis Cluster of 3 masters and 3
 * replicas, a Postgres primary with a streaming replica, PgBouncer in transaction mode in front of both.
 */
const topology = process.env.SOAK_TOPOLOGY ?? 'single';
if (topology !== 'single' && topology !== 'scaled') throw new Error('SOAK_TOPOLOGY must be single or scaled');

export const SOAK = {
  seconds,
  /** SOAK_FAULTS=deploy,kill-worker: only these faults (each still twice); `none`: no fault; unset, every fault of the topology. */
  faults: process.env.SOAK_FAULTS?.split(',')
    .map((f) => f.trim())
    .filter(Boolean),
  topology: topology as 'single' | 'scaled',
  /** Every private port sits in one range: Postgres, Redis, two web processes, two workers, four simulators. */
  ports: {
    base: portBase,
    postgres: portBase + 432,
    redis: portBase + 379,
    webs: [portBase + 80, portBase + 81],
    workerHealth: [portBase + 90, portBase + 91],
    simulatorBase: portBase + 100,
    /** The scaled topology's: the replica, PgBouncer, and six Redis Cluster nodes. */
    replica: portBase + 433,
    pgbouncer: portBase + 434,
    clusterBase: portBase + 500,
    /** The scaled topology's Patroni REST APIs (one per Postgres node) and its one-member etcd. */
    patroniRest: [portBase + 610, portBase + 611],
    etcdClient: portBase + 620,
    etcdPeer: portBase + 621,
  },
  cluster: { masters: 3, replicasPerMaster: 1 },
  /** Past this the replica takes no reads; a held replica goes past it. */
  replicaMaxLagMs: 2_000,
  /** How long a held replica's replay stays paused. */
  replicaHoldMs: 6_000,
  /** Each product process reports its memory this often; growth is judged after the warm-up share of the run. */
  memorySampleMs: 5_000,
  memoryWarmUpShare: 0.25,
  memoryGrowthMax: 0.2,
  root: '/tmp/switchyard-soak',
  redisPrefix: 'soak',
  /** The floors this run must reach; the drivers pace toward them (and stop there). */
  quota: {
    raceLocks: Math.ceil(TARGETS.raceLocks * share),
    fuzzRequests: Math.ceil(TARGETS.fuzzRequests * share),
  },
  /** The drivers aim to have started their whole quota by this share of the run, leaving the rest to catch up. */
  paceFinishShare: 0.85,
  /** Executes sent at each lock at once, and most locks raced at once (the pace decides how many are). */
  raceParallel: 20,
  racingLocks: Number(process.env.SOAK_RACING_LOCKS ?? 16),
  /** Most fuzz requests in flight at once. */
  fuzzConcurrency: Number(process.env.SOAK_FUZZ_CONCURRENCY ?? 32),
  /** Swap flows (quote → lock → execute → track) in flight at once. */
  swapFlows: Number(process.env.SOAK_SWAP_FLOWS ?? 4),
  /** Most swap flows started a second: about what the flows reach while the race and fuzz drivers run. */
  swapsPerSecond: Number(process.env.SOAK_SWAPS_PER_SECOND ?? 1.5),
  /** How long the books wait for every swap to settle after the load stops. */
  settleTimeoutMs: 180_000,
  /** How long a client keeps retrying a track call through outages before it gives up. */
  trackRetryMs: 300_000,
  /** An outage window stays open this long after the product answers ready again. */
  outageGraceMs: 3_000,
  rateLimit: { windowSeconds: 10, catalog: 400, quote: 4_000, execute: 10_000, transactions: 10_000 },
} as const;

export type SoakConfig = typeof SOAK;
