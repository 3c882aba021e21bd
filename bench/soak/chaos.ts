/**
 * Chaos on a schedule, each kind at least twice: SIGKILL a worker (and start another), SIGKILL a web
 * process and restart it, restart Redis, flush the BullMQ keys, restart Postgres. Each fault opens an
 * outage window that closes once both web processes answer ready again (plus a grace period).
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SCHEDULE_IDS } from '../../server/tracking/jobs';
import { bullPrefix } from '../../server/tracking/queues';
import { SOAK } from './config';
import type { Product } from './processes';
import { servers } from './processes';
import type { Recorder } from './recorder';

export const CHAOS_KINDS = ['kill-worker', 'kill-web', 'restart-redis', 'flush-bullmq', 'restart-postgres'] as const;
export type ChaosKind = (typeof CHAOS_KINDS)[number];

export interface ChaosEvent {
  kind: ChaosKind;
  at: number;
  /** From the fault until both web processes answered ready (or the workers' schedules were back). */
  recoverMs?: number;
  /** After a worker SIGKILL: until every job the dead worker held was picked up again. */
  redeliveryMs?: number;
  jobsHeld?: number;
  note?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await sleep(100);
  }
  return undefined;
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

function queue(name: string) {
  const connection = new Redis(servers.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  connection.on('error', () => {});
  const q = new Queue(name, { connection, prefix: bullPrefix(SOAK.redisPrefix) });
  q.on('error', () => {});
  // A queue does not close a connection it was handed; this one would retry forever once Redis is gone.
  return Object.assign(q, {
    close: async () => {
      await Queue.prototype.close.call(q);
      connection.disconnect();
    },
  });
}

/** Deletes every BullMQ key of the soak's prefix (and nothing else in Redis). */
async function flushBullKeys(): Promise<number> {
  const redis = new Redis(servers.redisUrl);
  let deleted = 0;
  try {
    const stream = redis.scanStream({ match: `${bullPrefix(SOAK.redisPrefix)}:*`, count: 1000 });
    for await (const keys of stream as AsyncIterable<string[]>) {
      if (keys.length) deleted += await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export class Chaos {
  readonly events: ChaosEvent[] = [];
  private workerTurn = 0;
  private webTurn = 0;

  constructor(
    private readonly product: Product,
    private readonly rec: Recorder,
  ) {}

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
          const web = this.product.webs[this.webTurn++ % this.product.webs.length];
          await web?.kill();
          await web?.start();
          break;
        }
        case 'restart-redis':
          servers.stopRedis();
          await sleep(2000);
          await servers.startRedis();
          break;
        case 'restart-postgres':
          servers.stopPostgres('immediate');
          await sleep(2000);
          servers.startPostgres();
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
      event.recoverMs = ready === undefined ? undefined : Date.now() - started;
    } finally {
      this.rec.closeOutage(outage, SOAK.outageGraceMs);
    }
  }

  /** SIGKILLs a worker mid-job, times until its jobs run again elsewhere, then starts a replacement. */
  private async killWorker(event: ChaosEvent) {
    const tracking = queue('tracking');
    try {
      const worker = this.product.workers[this.workerTurn++ % this.product.workers.length];
      const active = await tracking.getActive().catch(() => []);
      const killedAt = Date.now();
      await worker?.kill();
      event.jobsHeld = active.length;
      const ids = active.map((j) => j.id as string);
      const redelivered = await until(async () => {
        for (const id of ids) {
          const job = await tracking.getJob(id);
          if (job && !(job.processedOn && job.processedOn > killedAt) && !(job.finishedOn && job.finishedOn > killedAt))
            return false;
        }
        return true;
      }, 60_000);
      event.redeliveryMs = redelivered;
      await worker?.start();
    } finally {
      await tracking.close();
    }
  }
}
