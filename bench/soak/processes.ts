/**
 * The product under soak, all on loopback: private Postgres and Redis (the fault suite's servers,
 * on the soak's own ports and data directory), the simulators, two web processes (the API server)
 * and two workers. With SOAK_TOPOLOGY=scaled, Postgres is two nodes under Patroni (a primary and a
 * synchronous standby; see ./patroni.ts) with PgBouncer (in transaction mode) in front of both,
 * re-pointed by Patroni on a failover, and Redis is a Cluster of 3 masters and 3 replicas. Each child
 * logs to its own file under the soak's directory.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { ensureDatabase, migrateDatabase } from '../../drizzle/migrate';
import { seedCatalog } from '../../drizzle/seed/seed';
import { PROVIDER_KEYS, type ProviderKey } from '../../server/config';
import { createDb } from '../../server/db';
import type { RedisTarget } from '../../server/redis';
import { privateServers } from '../../test/support/private-servers';
import { waitUntil } from '../../test/support/processes';
import { privateRedisCluster } from '../../test/support/redis-cluster';
import { ensurePgBouncer, privatePgBouncer, privateReplica } from '../../test/support/scaled-servers';
import { SOAK } from './config';
import { missingFailoverPackages, privatePatroni } from './patroni';

const ROOT = new URL('../..', import.meta.url).pathname;
const scaled = SOAK.topology === 'scaled';
export const servers = privateServers({ root: SOAK.root, pgPort: SOAK.ports.postgres, redisPort: SOAK.ports.redis });
/**
 * The primary, directly: what the books and the race cloner read and write. Scaled, either node with
 * target_session_attrs=primary (postgres.js tries them in order), so it follows a failover. Not
 * read-write: postgres.js 3.4 judges that by default_transaction_read_only alone, which a hot standby
 * reports off, so it would settle on the standby.
 */
export const databaseUrl = scaled
  ? `postgres://postgres@127.0.0.1:${SOAK.ports.postgres},127.0.0.1:${SOAK.ports.replica}/switchyard?target_session_attrs=primary`
  : servers.postgresUrl('switchyard');

/** The replica made with pg_basebackup; scaled, its node's port, whichever node that is now (see `patroni`). */
export const replicaAt = (port: number, primaryPort: number) => privateReplica({ root: SOAK.root, primaryPort, port });
export const replica = replicaAt(SOAK.ports.replica, SOAK.ports.postgres);
/** Where PgBouncer sends writes and reads; a promotion changes both (Patroni's callback edits the running file). */
export const pgbouncerDatabases = {
  switchyard: { port: SOAK.ports.postgres, dbname: 'switchyard' },
  switchyard_read: { port: SOAK.ports.replica, dbname: 'switchyard' },
};
export const pgbouncer = privatePgBouncer({
  root: SOAK.root,
  port: SOAK.ports.pgbouncer,
  poolSize: 40,
  databases: pgbouncerDatabases,
});
export const patroni = privatePatroni({
  root: SOAK.root,
  scope: 'switchyard-soak',
  etcd: { client: SOAK.ports.etcdClient, peer: SOAK.ports.etcdPeer },
  nodes: [
    { name: 'a', pgPort: SOAK.ports.postgres, restPort: SOAK.ports.patroniRest[0] },
    { name: 'b', pgPort: SOAK.ports.replica, restPort: SOAK.ports.patroniRest[1] },
  ],
  pgbouncerDir: `${SOAK.root}/pgbouncer`,
  database: { write: 'switchyard', read: 'switchyard_read' },
});
export const redisCluster = privateRedisCluster({
  root: SOAK.root,
  basePort: SOAK.ports.clusterBase,
  masters: SOAK.cluster.masters,
  replicasPerMaster: SOAK.cluster.replicasPerMaster,
  nodeTimeoutMs: 2000,
});

/** Where the soak's own clients (the books, the chaos) find Redis. */
export const redisTarget: RedisTarget = scaled
  ? { redisUrl: '', redisClusterNodes: redisCluster.nodes.split(',') }
  : { redisUrl: servers.redisUrl, redisClusterNodes: [] };

/** What the topology puts in every product process's environment. */
const topologyEnv: Record<string, string> = scaled
  ? {
      DATABASE_URL: pgbouncer.url('switchyard'),
      DATABASE_POOLER: 'transaction',
      // A login through PgBouncer waits in its queue for a server connection (README "PgBouncer").
      DATABASE_CONNECT_TIMEOUT_MS: '5000',
      DATABASE_READ_URL: pgbouncer.url('switchyard_read'),
      DATABASE_READ_MAX_LAG_MS: String(SOAK.replicaMaxLagMs),
      // LISTEN cannot go through a transaction pooler: straight to whichever node is the primary.
      DATABASE_LISTEN_URL: databaseUrl,
      REDIS_CLUSTER_NODES: redisCluster.nodes,
    }
  : { DATABASE_URL: databaseUrl, REDIS_URL: servers.redisUrl };

/** The topology as soak.json states it. */
export const topology = scaled
  ? {
      name: 'scaled',
      redis: {
        cluster: true,
        masters: SOAK.cluster.masters,
        replicas: SOAK.cluster.masters * SOAK.cluster.replicasPerMaster,
      },
      postgres: {
        primary: 1,
        streamingReplicas: 1,
        replication: 'synchronous (Patroni synchronous_mode, not strict)',
        failover: 'Patroni 3.0 with a one-member etcd; PgBouncer re-pointed by on_role_change',
        pooler: 'pgbouncer (pool_mode = transaction)',
      },
      web: SOAK.ports.webs.length,
      worker: SOAK.ports.workerHealth.length,
    }
  : {
      name: 'single',
      redis: { cluster: false, masters: 1, replicas: 0 },
      postgres: { primary: 1, streamingReplicas: 0, pooler: 'none' },
      web: SOAK.ports.webs.length,
      worker: SOAK.ports.workerHealth.length,
    };

/** A nice value below the product's (0): the simulators are scheduled first, as an upstream on its own hosts would be. */
const SIMULATOR_PRIORITY = -5;

export const simulatorUrls = Object.fromEntries(
  PROVIDER_KEYS.map((key, i) => [key, `http://127.0.0.1:${SOAK.ports.simulatorBase + i}`]),
) as Record<ProviderKey, string>;

/** What every product process is started with. */
export const productEnv: Record<string, string> = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  ...topologyEnv,
  DATABASE_POOL_MAX: '20',
  REDIS_PREFIX: SOAK.redisPrefix,
  AUTH_SECRET: 'soak-secret-soak-secret-soak-secret-0123456789',
  RATE_LIMIT_HASH_KEY: 'soak-rate-limit-hash-key',
  PROVIDERS_MODE: 'simulated',
  SIMULATOR_HOST: '127.0.0.1',
  SIMULATOR_BASE_PORT: String(SOAK.ports.simulatorBase),
  // Relay, Chainflip and LI.FI swaps deposit as soon as they are opened; THORChain's are observed by the traffic.
  SIMULATOR_AUTO_DEPOSIT_MS: '0',
  UPSTREAM_ALLOWED_HOSTS: '127.0.0.1',
  CATALOG_CACHE_MS: '5000',
  PROVIDER_DEADLINE_MS: '3000',
  EXECUTE_CLAIM_TIMEOUT_MS: '20000',
  RATE_LIMIT_WINDOW_SECONDS: String(SOAK.rateLimit.windowSeconds),
  RATE_LIMIT_CATALOG: String(SOAK.rateLimit.catalog),
  RATE_LIMIT_QUOTE: String(SOAK.rateLimit.quote),
  RATE_LIMIT_EXECUTE: String(SOAK.rateLimit.execute),
  RATE_LIMIT_TRANSACTIONS: String(SOAK.rateLimit.transactions),
  RATE_LIMIT_ROLLUP_INTERVAL_MS: '2000',
  // The drivers are a handful of loopback addresses carrying many clients' traffic (320 executes race at once):
  // the per-address connection and history caps guard against one hostile address, not what the soak measures.
  MAX_CONNECTIONS_PER_CLIENT: '100000',
  HISTORY_READS_PER_CLIENT: '100000',
  TRACKING_TIME_SCALE: '0.05',
  TRACKING_MIN_INTERVAL_MS: '250',
  TRACKING_CONCURRENCY: '32',
  // The worker lock and stalled check stay at their defaults (8 s, 4 s): the soak measures what ships.
  SWEEP_INTERVAL_MS: '5000',
  SWEEP_GRACE_MS: '5000',
  ...Object.fromEntries(PROVIDER_KEYS.map((key) => [`${key}_URL`, simulatorUrls[key]])),
};

export const memoryDir = `${SOAK.root}/memory`;

/** Every child still running, so an interrupted soak leaves none behind. */
const running = new Set<ChildProcess>();
const killAll = () => {
  for (const child of running) child.kill('SIGKILL');
};
process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    stopDataServers();
    process.exit(130);
  });
}

/** Product processes that exited without being told to (a crash), with their exit code or signal. */
export const crashes: { name: string; at: number; exit: string }[] = [];

export class ProductProcess {
  child?: ChildProcess;
  starts = 0;
  private stopping = false;
  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    readonly healthUrl: string,
  ) {}

  /**
   * Starts the process; again (up to 5 times) when it exits at once because its port is taken. The
   * soak's ports lie inside Linux's ephemeral range (32768–60999), so an outgoing connection of any
   * process on the machine may briefly hold one as its local port: that is the machine, not a crash.
   */
  async start() {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (error) {
        if (!(error instanceof PortTaken) || attempt >= 5) throw error;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  private async startOnce() {
    mkdirSync(`${SOAK.root}/logs`, { recursive: true });
    const logPath = `${SOAK.root}/logs/${this.name}.log`;
    const log = openSync(logPath, 'a');
    const logStart = statSync(logPath).size;
    // SOAK_CPU_PROF=<dir>: each product process writes a CPU profile there when it is stopped (not when killed).
    const profile = process.env.SOAK_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SOAK_CPU_PROF}/${this.name}`]
      : [];
    mkdirSync(memoryDir, { recursive: true });
    this.child = spawn(
      process.execPath,
      [...profile, '--import', 'tsx', '--import', `${ROOT}bench/soak/memory-probe.ts`, this.entry],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          ...productEnv,
          ...this.env,
          SOAK_MEMORY_FILE: `${memoryDir}/${this.name}.jsonl`,
          SOAK_MEMORY_SAMPLE_MS: String(SOAK.memorySampleMs),
        },
        stdio: ['ignore', log, log],
      },
    );
    const child = this.child;
    this.stopping = false;
    running.add(child);
    let up = false;
    let portTaken = false;
    let output = '';
    child.once('exit', (code, signal) => {
      running.delete(child);
      // What this start wrote to its log (the file is appended to across restarts).
      output = readFileSync(logPath, 'utf8').slice(logStart).slice(-2000);
      portTaken = !up && / is in use/.test(output);
      if (!this.stopping && !portTaken) crashes.push({ name: this.name, at: Date.now(), exit: String(code ?? signal) });
    });
    this.starts += 1;
    up = await waitUntil(
      () =>
        child.exitCode !== null ||
        fetch(this.healthUrl, { signal: AbortSignal.timeout(1000) })
          .then((r) => r.ok)
          .catch(() => false),
      { timeoutMs: 180_000, intervalMs: 100 },
    );
    if (portTaken) throw new PortTaken(output.trim().split('\n').at(-1) ?? '');
    if (!up || child.exitCode !== null)
      throw new Error(`${this.name} did not come up; see ${SOAK.root}/logs/${this.name}.log`);
  }

  /** SIGKILL, and wait until the process is gone. */
  async kill() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    this.stopping = true;
    child.kill('SIGKILL');
    await gone;
  }

  /** SIGTERM, SIGKILL after `graceMs`; resolves with how it exited ('0' when it drained and stopped by itself). */
  async stop(graceMs = 15_000): Promise<string | undefined> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return undefined;
    const gone = new Promise<string>((resolve) =>
      child.once('exit', (code, signal) => resolve(String(code ?? signal))),
    );
    this.stopping = true;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const exit = await gone;
    clearTimeout(timer);
    return exit;
  }
}

class PortTaken extends Error {}

export interface Product {
  webs: ProductProcess[];
  workers: ProductProcess[];
  simulators: ProductProcess;
  webBases: string[];
  /**
   * The web processes the soak's clients send to, as a load balancer's pool: every request picks from
   * it afresh. A deploy takes a web out before stopping it and puts it back once it answers ready.
   */
  inRotation: string[];
  stop(): Promise<void>;
}

/** A fresh Postgres cluster with the migrated, seeded database, and an empty Redis (or the scaled topology's servers). */
export async function startDataServers() {
  stopDataServers('immediate');
  rmSync(memoryDir, { recursive: true, force: true });
  mkdirSync(SOAK.root, { recursive: true });
  chmodSync(SOAK.root, 0o755);
  if (scaled) {
    const missing = missingFailoverPackages();
    if (missing.length)
      throw new Error(
        `the scaled soak needs ${missing.join(' and ')}: bash scripts/services.sh --with-patroni (apt-get install -y ${missing.join(' ')})`,
      );
    if (!ensurePgBouncer()) throw new Error('the scaled soak needs pgbouncer: apt-get install pgbouncer');
    chownToPostgres(SOAK.root);
    await patroni.startPrimary();
  } else {
    servers.initPostgres();
    servers.startPostgres();
  }
  // Node a bootstraps the scaled cluster: the setup writes to it directly (migrations parse the URL).
  const setupUrl = servers.postgresUrl('switchyard');
  await ensureDatabase(setupUrl);
  await migrateDatabase(setupUrl);
  const seed = createDb({ url: setupUrl, poolMax: 1, connectTimeoutMs: 5000 });
  await seedCatalog(seed.db);
  await seed.close();
  if (!scaled) {
    await servers.startRedis();
    return;
  }
  await patroni.startStandby();
  await pgbouncer.start();
  await redisCluster.start();
}

export async function startProduct(): Promise<Product> {
  const simulators = new ProductProcess(
    'simulators',
    'server/providers/simulators-main.ts',
    {},
    `${simulatorUrls.RELAY}/__sim/state`,
  );
  await simulators.start();
  // The simulators stand in for providers, which do not share the product's CPU: on a loaded 2-core
  // machine they would otherwise answer past the provider deadline and open the product's breakers.
  try {
    if (simulators.child?.pid) setPriority(simulators.child.pid, SIMULATOR_PRIORITY);
  } catch (error) {
    console.warn(
      `soak: could not raise the simulators' priority (${(error as Error).message}); they share the CPU evenly`,
    );
  }
  const webBases = SOAK.ports.webs.map((port) => `http://127.0.0.1:${port}`);
  const webs = SOAK.ports.webs.map(
    (port, i) =>
      new ProductProcess(
        `web-${i + 1}`,
        'server/http/lean-server.ts',
        { API_PORT: String(port) },
        `${webBases[i]}/api/health`,
      ),
  );
  const workers = SOAK.ports.workerHealth.map(
    (port, i) =>
      new ProductProcess(
        `worker-${i + 1}`,
        'workers/main.ts',
        { WORKER_HEALTH_PORT: String(port) },
        `http://127.0.0.1:${port}/`,
      ),
  );
  await Promise.all([...webs, ...workers].map((p) => p.start()));
  return {
    webs,
    workers,
    simulators,
    webBases,
    inRotation: [...webBases],
    async stop() {
      await Promise.all([...webs, ...workers].map((p) => p.stop()));
      await simulators.stop();
    },
  };
}

export function stopDataServers(mode: 'fast' | 'immediate' = 'fast') {
  if (scaled) {
    pgbouncer.kill();
    redisCluster.stop();
    patroni.stop();
    // Put back where a fresh cluster's nodes start (a failover moved them).
    Object.assign(pgbouncerDatabases.switchyard, { port: SOAK.ports.postgres });
    Object.assign(pgbouncerDatabases.switchyard_read, { port: SOAK.ports.replica });
  }
  servers.stopPostgres(mode);
  servers.stopRedis();
}

function chownToPostgres(path: string) {
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', path]);
}
