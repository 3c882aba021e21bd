import { createServer, type Server } from 'node:http';
import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../server/config';
import { type AppContext, createAppContext } from '../server/context';
import { listen } from '../server/lifecycle';
import { createWorkerRedis } from '../server/redis';
import { serviceStopOptions, stopServiceInSteps, waitOrAbort } from '../server/stop-steps';
import { activeTracing } from '../server/tracing/active';
import {
  bullPrefix,
  createQueue,
  createTrackingScheduler,
  restoreMissingSchedulers,
  syncJobSchedulers,
} from '../server/tracking/queues';
import { handsBackOnShutdown } from './hand-back';
import { maintenanceProcessor, maintenanceTasks } from './processors/maintenance';
import { trackingProcessor } from './processors/tracking';
import { webhooksProcessor, webhooksWorkerConcurrency } from './processors/webhooks';

export interface WorkerRuntime {
  ctx: AppContext;
  workers: Worker[];
  health?: Server;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

/** With tracing on, the spans of a job about one swap (a poll, a webhook fan-out) name its transaction, down to its SQL. */
function withTransactionAttribute<P extends (job: Job, token?: string) => Promise<unknown>>(processor: P): P {
  const tracing = activeTracing();
  if (!tracing) return processor;
  return (async (job: Job, token?: string) => {
    const transactionId = job.data?.transactionId;
    if (typeof transactionId !== 'string') return processor(job, token);
    return tracing.withAttributes({ 'switchyard.transaction_id': transactionId }, () => processor(job, token));
  }) as P;
}

export interface WorkerOptions {
  /** Serve the readiness probe on config.worker.healthPort. */
  healthServer?: boolean;
  /**
   * Resolves once a stopping worker has waited `ms` for its active jobs (unless `signal` aborts first: they
   * all finished). Then the jobs still running are handed back. Tests pass one they resolve themselves.
   */
  waitToHandBack?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Active jobs get this share of SHUTDOWN_TIMEOUT_MS to finish before they are handed back. */
const HAND_BACK_SHARE = 0.25;

/**
 * Closes BullMQ workers, which wait for their active jobs: once `handBackAfterMs` has passed, `handBack`
 * fires and the jobs still running go back to their queues (handsBackOnShutdown).
 */
async function closeWorkers(
  workers: Worker[],
  handBack: AbortController,
  handBackAfterMs: number,
  wait: NonNullable<WorkerOptions['waitToHandBack']>,
  log: AppContext['log'],
) {
  const finished = new AbortController();
  const closing = Promise.all(workers.map((w) => w.close()));
  void wait(handBackAfterMs, finished.signal).then(() => {
    if (finished.signal.aborted) return;
    log.warn({ afterMs: handBackAfterMs }, 'jobs still running at shutdown are handed back');
    handBack.abort();
  });
  try {
    await closing;
  } finally {
    finished.abort();
  }
}

/** The tracking, maintenance and webhooks workers, the catalog's job schedules and a readiness probe (BullMQ production checklist). */
export async function startWorkerRuntime(config: Config, options: WorkerOptions = {}): Promise<WorkerRuntime> {
  const ctx = createAppContext(config);
  const connections: Redis[] = [];
  const connection = () => {
    const redis = createWorkerRedis(config);
    connections.push(redis);
    return redis;
  };
  const trackingQueue = createQueue('tracking', connection(), config.redisPrefix);
  const maintenanceQueue = createQueue('maintenance', connection(), config.redisPrefix);
  const webhookQueue = createQueue('webhooks', connection(), config.redisPrefix);
  const scheduler = createTrackingScheduler(trackingQueue);
  ctx.tracking = scheduler;
  ctx.webhookQueue = webhookQueue;
  const prefix = bullPrefix(config.redisPrefix);
  const common = {
    prefix,
    // With tracing on, each run of a job is a span in the trace that enqueued it (bullmq-otel).
    telemetry: activeTracing()?.queueTelemetry,
    // A dead worker's job runs again within lockDuration + stalledInterval (8 + 4 s by default). A live
    // worker renews its locks every lockDuration / 2, so only an event loop stalled that long loses one.
    lockDuration: config.worker.lockDurationMs,
    stalledInterval: Math.min(config.worker.stalledIntervalMs, Math.max(1000, config.worker.lockDurationMs / 2)),
  };

  const queues = { tracking: trackingQueue, maintenance: maintenanceQueue, webhooks: webhookQueue };
  await syncJobSchedulers(queues, config);
  // The schedules live in Redis: a flush or an unpersisted restart loses them, the sweep included.
  const scheduleWatch = setInterval(() => {
    restoreMissingSchedulers(queues, config)
      .then((restored) => {
        if (restored.length) ctx.log.warn({ restored }, 'job schedules were missing from Redis; restored');
      })
      .catch((error) => ctx.log.warn({ err: error }, 'job schedules not checked'));
  }, config.worker.sweepIntervalMs);
  scheduleWatch.unref();

  const handBack = new AbortController();
  const handedBack = (job: Job) => ctx.log.warn({ jobId: job.id, queue: job.queueName }, 'job handed back at shutdown');
  const tracking = new Worker(
    'tracking',
    handsBackOnShutdown(withTransactionAttribute(trackingProcessor(ctx)), handBack.signal, handedBack),
    {
      ...common,
      connection: connection(),
      concurrency: config.worker.trackingConcurrency,
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    },
  );
  const tasks = maintenanceTasks(ctx, scheduler, connection());
  const maintenance = new Worker(
    'maintenance',
    handsBackOnShutdown(maintenanceProcessor(ctx, tasks), handBack.signal, handedBack),
    {
      ...common,
      connection: connection(),
      concurrency: 1,
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 1000 },
    },
  );
  const webhooks = new Worker(
    'webhooks',
    handsBackOnShutdown(withTransactionAttribute(webhooksProcessor(ctx)), handBack.signal, handedBack),
    {
      ...common,
      connection: connection(),
      concurrency: webhooksWorkerConcurrency(config.webhooks),
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    },
  );
  const workers = [tracking, maintenance, webhooks];
  for (const worker of workers) {
    worker.on('error', (error) => ctx.log.error({ err: error, queue: worker.name }, 'worker error'));
    worker.on('failed', (job, error) => ctx.log.warn({ err: error, jobId: job?.id, queue: worker.name }, 'job failed'));
  }

  const isReady = async () => {
    try {
      const [redisOk, pgOk] = await Promise.all([
        (connections[0] as Redis).ping().then((pong) => pong === 'PONG'),
        ctx.sql`select 1`.then(() => true),
      ]);
      return redisOk && pgOk && workers.every((w) => w.isRunning());
    } catch {
      return false;
    }
  };

  let health: Server | undefined;
  if (options.healthServer) {
    health = createServer(async (_req, res) => {
      const ready = await isReady();
      res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: ready ? 'ready' : 'unavailable' }));
    });
    await listen(health, config.worker.healthPort, config.host, 'WORKER_HEALTH_PORT');
  }

  return {
    ctx,
    workers,
    health,
    isReady,
    async close() {
      const budget = config.shutdownTimeoutMs;
      clearInterval(scheduleWatch);
      health?.close();
      // Each step is logged with its time, so a stop that runs long says which step it was.
      await stopServiceInSteps(
        [
          [
            'workers',
            () =>
              closeWorkers(workers, handBack, budget * HAND_BACK_SHARE, options.waitToHandBack ?? waitOrAbort, ctx.log),
          ],
          ['queues', () => Promise.all([trackingQueue.close(), maintenanceQueue.close(), webhookQueue.close()])],
          [
            'redis',
            () => {
              for (const redis of connections) redis.disconnect();
            },
          ],
          ['context', () => ctx.close()],
        ],
        serviceStopOptions(budget, ctx.log, 'worker'),
      );
    },
  };
}
