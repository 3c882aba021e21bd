/**
 * Chaos on a schedule, each kind at least twice: SIGKILL a worker (and start another), SIGKILL a web
 * process and restart it, restart Redis, flush the BullMQ keys, restart Postgres. The scaled topology
 * adds: SIGKILL a Redis master (its replica is promoted; the old master rejoins as a replica), SIGKILL
 * the Postgres primary's postmaster (Patroni promotes the standby; the old primary rejoins as the
 * standby), restart the Postgres standby, hold the standby behind by pausing its replay, restart
 * PgBouncer, and roll a deploy through every product process (bench/soak/deploy.ts). Scaled, Postgres
 * restarts go through Patroni (which would fail over a primary stopped behind its back). Each fault opens an outage window that closes once both web processes answer ready
 * again (plus a grace period).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createWorkerRedis } from '../../server/redis';
import { SCHEDULE_IDS } from '../../server/tracking/jobs';
import { bullPrefix, createQueue } from '../../server/tracking/queues';
import { SOAK } from './config';
import { Deployer, type DeployOutcome } from './deploy';
import { isLeader, isSyncStandby, type PatroniNode } from './patroni';
import { sleep, until } from './poll';
import type { Product } from './processes';
import {
  patroni,
  pgbouncer,
  pgbouncerDatabases,
  redisCluster,
  redisTarget,
  replica,
  replicaAt,
  servers,
} from './processes';
import type { Recorder } from './recorder';
import type { Traffic } from './traffic';

const SINGLE_KINDS = ['kill-worker', 'kill-web', 'restart-redis', 'flush-bullmq', 'restart-postgres'] as const;
const SCALED_KINDS = [
  'kill-redis-master',
  'kill-postgres-primary',
  'restart-replica',
  'hold-replica',
  'restart-pgbouncer',
  'deploy',
] as const;
export type ChaosKind = (typeof SINGLE_KINDS)[number] | (typeof SCALED_KINDS)[number];
const TOPOLOGY_KINDS: readonly ChaosKind[] =
  SOAK.topology === 'scaled' ? [...SINGLE_KINDS, ...SCALED_KINDS] : SINGLE_KINDS;
/** SOAK_FAULTS=none: the load alone, e.g. to read route-time accuracy in steady conditions. */
const NO_FAULTS = SOAK.faults?.length === 1 && SOAK.faults[0] === 'none';
const unknownFaults = NO_FAULTS ? [] : (SOAK.faults ?? []).filter((f) => !TOPOLOGY_KINDS.includes(f as ChaosKind));
if (unknownFaults.length)
  throw new Error(
    `SOAK_FAULTS: ${unknownFaults.join(', ')} not among this topology's faults (${TOPOLOGY_KINDS.join(', ')})`,
  );
/** The faults this run injects: SOAK_FAULTS's (none for `none`), or every one of the topology. */
export const CHAOS_KINDS: readonly ChaosKind[] = NO_FAULTS
  ? []
  : SOAK.faults?.length
    ? TOPOLOGY_KINDS.filter((k) => SOAK.faults?.includes(k))
    : TOPOLOGY_KINDS;

export interface ChaosEvent {
  kind: ChaosKind;
  at: number;
  /**
   * From the fault until the product works again: both web processes answer ready (after a worker
   * SIGKILL: every job the dead worker held runs again elsewhere; after a Redis master kill: its
   * replica serves the slots and both web processes answer ready).
   */
  recoverMs?: number;
  /** After a worker SIGKILL: until every job the dead worker held was picked up again. */
  redeliveryMs?: number;
  /** After a worker SIGKILL: until the stalled check had handed each of them back (none left `active` unheld). */
  handedBackMs?: number;
  jobsHeld?: number;
  /** After a worker SIGKILL: how long its replacement took to start (not part of the recovery). */
  replacementStartMs?: number;
  /** After a Postgres primary SIGKILL: until Patroni had promoted the standby. */
  promotedMs?: number;
  /** After a Postgres primary SIGKILL: until a write through PgBouncer (the product's path) succeeded again. */
  writeOutageMs?: number;
  /** After a Postgres primary SIGKILL: until the old primary was the synchronous standby again. */
  rejoinedMs?: number;
  /** A rolling deploy: the migration, each process's drain, stop and start, and the status streams it ended. */
  deploy?: DeployOutcome;
  note?: string;
}

const readyEverywhere = (product: Product) => async () => {
  const answers = await Promise.all(
    product.webBases.map((base) =>
      fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(2000) })
        .then((r) => r.status === 200)
        .catch(() => false),
    ),
  );
  return answers.every(Boolean);
};

/** A queue on a connection of its own, closed with it (a queue does not close a connection it was handed). */
function queue(name: 'tracking' | 'maintenance'): Queue & { close(): Promise<void> } {
  const connection = createWorkerRedis(redisTarget);
  connection.on('error', () => {});
  const q = createQueue(name, connection, SOAK.redisPrefix);
  const close = q.close.bind(q);
  return Object.assign(q, {
    close: async () => {
      await close();
      connection.disconnect();
    },
  });
}

/** The nodes to scan: the one server, or every master of the cluster. */
function scanTargets(): Redis[] {
  if (SOAK.topology !== 'scaled') return [createWorkerRedis(servers.redisUrl)];
  return redisCluster.masters().map(({ port }) => createWorkerRedis(`redis://127.0.0.1:${port}`));
}

/** Deletes every BullMQ key of the soak's prefix (and nothing else in Redis); they share one slot. */
async function flushBullKeys(): Promise<number> {
  let deleted = 0;
  for (const redis of scanTargets()) {
    try {
      const stream = redis.scanStream({ match: `${bullPrefix(SOAK.redisPrefix)}:*`, count: 1000 });
      for await (const keys of stream as AsyncIterable<string[]>) {
        if (keys.length) deleted += await redis.del(...keys);
      }
    } finally {
      redis.disconnect();
    }
  }
  return deleted;
}

export class Chaos {
  readonly events: ChaosEvent[] = [];
  private masterTurn = 0;
  /** The last killed worker's replacement, starting. */
  private replacement: Promise<void> | undefined;

  /** Redelivery watches still running after a worker kill. */
  private readonly watches: Promise<void>[] = [];

  /** Waits for a replacement still starting and the redelivery watches, so the run ends with every process up. */
  async settled() {
    await this.replacement;
    await Promise.all(this.watches);
  }

  private readonly deployer: Deployer;

  constructor(
    private readonly product: Product,
    private readonly rec: Recorder,
    traffic?: Traffic,
  ) {
    this.deployer = new Deployer(product, traffic);
  }

  /** Every kind twice, spread over the middle of [start, end]. */
  async run(start: number, end: number) {
    const plan = [...CHAOS_KINDS, ...CHAOS_KINDS];
    const first = start + (end - start) * 0.1;
    const step = ((end - start) * 0.75) / plan.length;
    for (const [i, kind] of plan.entries()) {
      const at = first + i * step;
      if (at > Date.now()) await sleep(at - Date.now());
      await this.inject(kind);
    }
  }

  async inject(kind: ChaosKind) {
    const event: ChaosEvent = { kind, at: Date.now() };
    this.events.push(event);
    const outage = this.rec.openOutage(kind);
    const started = Date.now();
    try {
      switch (kind) {
        case 'kill-worker':
          await this.killWorker(event);
          break;
        case 'kill-web': {
          // Always the first: the second lives through the run, so its memory is measured over all of it.
          const web = this.product.webs[0];
          await web?.kill();
          await web?.start();
          break;
        }
        case 'restart-redis':
          if (SOAK.topology === 'scaled') {
            // Every node at once, no persistence: every key is lost, the cluster layout stays.
            redisCluster.stop();
            await sleep(2000);
            await Promise.all(redisCluster.ports.map((port) => redisCluster.restart(port)));
          } else {
            servers.stopRedis();
            await sleep(2000);
            await servers.startRedis();
          }
          break;
        case 'restart-postgres':
          if (SOAK.topology === 'scaled') await this.restartThroughPatroni('leader', event);
          else {
            servers.stopPostgres('immediate');
            await sleep(2000);
            servers.startPostgres();
          }
          break;
        case 'kill-postgres-primary':
          await this.killPostgresPrimary(event);
          break;
        case 'kill-redis-master':
          await this.killRedisMaster(event);
          break;
        case 'restart-replica':
          await this.restartThroughPatroni('standby', event);
          break;
        case 'hold-replica': {
          const standby = await this.standby();
          standby.pauseReplay();
          await sleep(SOAK.replicaHoldMs);
          standby.resumeReplay();
          event.note = `replay paused ${SOAK.replicaHoldMs} ms (past DATABASE_READ_MAX_LAG_MS = ${SOAK.replicaMaxLagMs})`;
          break;
        }
        case 'deploy':
          // A worker replaced after a kill may still be starting: a deploy replaces processes that run.
          await this.replacement;
          event.deploy = await this.deployer.deploy();
          break;
        case 'restart-pgbouncer':
          pgbouncer.kill();
          await sleep(1000);
          await pgbouncer.start();
          break;
        case 'flush-bullmq': {
          const deleted = await flushBullKeys();
          const maintenance = queue('maintenance');
          const back = await until(
            async () => (await maintenance.getJobSchedulers()).length >= SCHEDULE_IDS.length,
            60_000,
          );
          await maintenance.close();
          event.note = `${deleted} keys deleted; schedules ${back === undefined ? 'not restored within 60 s' : `restored after ${back} ms`}`;
          break;
        }
      }
      const ready = await until(readyEverywhere(this.product), 60_000);
      // The product has taken the work back once the stalled check hands it back; how soon a busy survivor
      // runs it is its backlog's matter (`redeliveryMs`).
      if (kind === 'kill-worker') event.recoverMs = event.handedBackMs;
      else event.recoverMs = ready === undefined ? undefined : Date.now() - started;
    } finally {
      this.rec.closeOutage(outage, SOAK.outageGraceMs);
    }
  }

  /**
   * SIGKILLs a worker mid-job and starts a replacement once the stalled check has handed back every job
   * it held (as an orchestrator restarts a dead process). Whether the handed-back jobs run again is
   * watched in the background, so a busy survivor's backlog does not hold up the rest of the schedule.
   * Jobs the surviving worker held leave `active` on their own within a poll; the dead worker's stay
   * `active` until the stalled check hands them back (`wait`) and a worker takes them.
   */
  private async killWorker(event: ChaosEvent) {
    await this.replacement;
    const tracking = queue('tracking');
    // Always the first: the second lives through the run, so its memory is measured over all of it.
    const worker = this.product.workers[0];
    let ids: string[] = [];
    let killedAt = Date.now();
    try {
      const active = await tracking.getActive().catch(() => []);
      killedAt = Date.now();
      await worker?.kill();
      event.jobsHeld = active.length;
      ids = active.map((j) => j.id as string);
      const handedBack = await until(() => this.heldJobsLeft(tracking, ids, killedAt, ['active']), 120_000);
      event.handedBackMs = handedBack === undefined ? undefined : Date.now() - killedAt;
      // Whether the survivor has room for them: its active jobs against TRACKING_CONCURRENCY, and the queue ahead.
      const counts = await tracking.getJobCounts('active', 'waiting', 'prioritized').catch(() => undefined);
      if (counts)
        event.note = `at hand-back: ${counts.active} active (the survivor's), ${(counts.waiting ?? 0) + (counts.prioritized ?? 0)} waiting`;
    } catch (error) {
      await tracking.close();
      throw error;
    }
    const replacing = Date.now();
    this.replacement = worker
      ?.start()
      .then(() => {
        event.replacementStartMs = Date.now() - replacing;
      })
      .catch((error: Error) => {
        event.note = `replacement did not start: ${error.message}`;
      });
    this.watches.push(
      until(() => this.heldJobsLeft(tracking, ids, killedAt, ['active', 'waiting', 'prioritized']), 180_000)
        .then((redelivered) => {
          event.redeliveryMs = redelivered === undefined ? undefined : Date.now() - killedAt;
        })
        .finally(() => tracking.close()),
    );
  }

  /** Whether none of the jobs a killed worker held (and nobody has run since) is still in one of `states`. */
  private async heldJobsLeft(tracking: Queue, ids: string[], killedAt: number, states: string[]) {
    for (const id of ids) {
      const job = await tracking.getJob(id);
      if (!job || (job.processedOn ?? 0) > killedAt || (job.finishedOn ?? 0) > killedAt) continue;
      if (states.includes(await job.getState())) return false;
    }
    return true;
  }

  /** The node standing by now (it moves with every failover), as a replica to pause. */
  private async standby() {
    const members = await patroni.members();
    const leader = patroni.nodeOf(members.find(isLeader));
    const standby = patroni.nodeOf(members.find((m) => m.role !== 'leader'));
    if (!leader || !standby) return replica;
    return replicaAt(standby.pgPort, leader.pgPort);
  }

  /** A Postgres restart Patroni performs (it keeps the node's role); then waits for both nodes to be back. */
  private async restartThroughPatroni(which: 'leader' | 'standby', event: ChaosEvent) {
    const members = await patroni.members();
    const node = patroni.nodeOf(which === 'leader' ? members.find(isLeader) : members.find((m) => m.role !== 'leader'));
    if (!node) throw new Error(`no Postgres ${which} to restart`);
    await patroni.restart(node);
    const back = await patroni.until((m) => m.some(isLeader) && m.some(isSyncStandby), 120_000);
    event.note = `node ${node.name} (${which}) restarted by Patroni; both nodes back ${back === undefined ? 'not within 120 s' : `after ${back} ms`}`;
  }

  /**
   * SIGKILLs the primary's postmaster (its Patroni lives on, as after a Postgres crash). Patroni fails
   * over at once (primary_start_timeout 0): the synchronous standby is promoted and its callback
   * re-points PgBouncer. Waits for writes to pass through PgBouncer again, then for the old primary to
   * rejoin (pg_rewind) as the synchronous standby, so the next fault finds two nodes.
   */
  private async killPostgresPrimary(event: ChaosEvent) {
    const before = await patroni.members();
    const victim = patroni.nodeOf(before.find(isLeader));
    if (!victim || !before.some(isSyncStandby)) throw new Error('no primary with a synchronous standby to fail over');
    const killedAt = Date.now();
    patroni.killPostmaster(victim);
    const promoted = await patroni.until((m) => m.some((x) => isLeader(x) && x.name !== victim.name), 60_000);
    event.promotedMs = promoted === undefined ? undefined : Date.now() - killedAt;
    const writable = await untilWritable(60_000);
    event.writeOutageMs = writable ? Date.now() - killedAt : undefined;
    const leader = await patroni.leader();
    if (leader) repoint(leader, victim);
    const rejoined = await patroni.until((m) => m.some((x) => isSyncStandby(x) && x.name === victim.name), 180_000);
    event.rejoinedMs = rejoined === undefined ? undefined : Date.now() - killedAt;
    event.note =
      `node ${victim.name} killed; ${leader?.name ?? '?'} promoted after ${event.promotedMs ?? '—'} ms, ` +
      `writes through PgBouncer back after ${event.writeOutageMs ?? '—'} ms; ` +
      `${victim.name} the synchronous standby again after ${event.rejoinedMs ?? '— (not within 180 s)'} ms`;
  }

  /**
   * SIGKILLs the master serving the BullMQ queues' slot (the first time) or another one (after), waits
   * for its replica to be promoted, and starts the killed node again: it rejoins as a replica.
   */
  private async killRedisMaster(event: ChaosEvent) {
    const queuesMaster = redisCluster.masterOf(`${bullPrefix(SOAK.redisPrefix)}:tracking:id`);
    const masters = redisCluster.masters().map((m) => m.port);
    const victim = this.masterTurn++ % 2 === 0 ? queuesMaster : masters.find((port) => port !== queuesMaster);
    if (victim === undefined) throw new Error('no Redis master found to kill');
    redisCluster.kill(victim);
    const promoted = await until(
      async () =>
        redisCluster.masters().length === SOAK.cluster.masters &&
        !redisCluster.masters().some((m) => m.port === victim),
      60_000,
    );
    await redisCluster.restart(victim);
    event.note = `master ${victim}${victim === queuesMaster ? " (the BullMQ queues' slot)" : ''}: replica promoted ${promoted === undefined ? 'not within 60 s' : `after ${promoted} ms`}; old master rejoined as a replica`;
  }
}

const run = promisify(execFile);

/** Whether a write (one that takes a transaction id, refused on a standby) passes through PgBouncer now. */
async function writable(): Promise<boolean> {
  try {
    await run('psql', [pgbouncer.url('switchyard'), '-tAc', 'select txid_current()'], {
      env: { ...process.env, PGCONNECT_TIMEOUT: '2' },
      timeout: 3000,
    });
    return true;
  } catch {
    return false;
  }
}

const untilWritable = async (timeoutMs: number) => (await until(writable, timeoutMs, 200)) !== undefined;

/** What PgBouncer is started with from now on (a restart-pgbouncer writes its file afresh). */
function repoint(primary: PatroniNode, standby: PatroniNode) {
  pgbouncerDatabases.switchyard.port = primary.pgPort;
  pgbouncerDatabases.switchyard_read.port = standby.pgPort;
}
