import type { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { webhookEndpoints, webhookMessages } from '../../drizzle/schema';
import { keep } from '../bounded-map';
import type { AppContext } from '../context';
import { type DeliveryOutcome, deliverMessage } from './deliver';
import { type AttemptVerdict, createEndpointGate, type EndpointGate, PROMPT_ANSWER_MS } from './gate';

export type Dispatch = { deferUntil: number; endpointId: string } | { outcome: DeliveryOutcome };

/** A message's endpoint and the account that owns it. */
interface Recipient {
  endpointId: string;
  ownerId: string;
}

/** A message never moves to another endpoint: a deferred job's later turns find its endpoint without a query. */
const KNOWN_MESSAGES = 50_000;

const verdictOf = (outcome: DeliveryOutcome): AttemptVerdict =>
  outcome.skipped
    ? 'none'
    : !outcome.delivered
      ? 'failed'
      : (outcome.latencyMs ?? 0) <= PROMPT_ANSWER_MS
        ? 'prompt'
        : 'slow';

type WebhookSettings = AppContext['config']['webhooks'];

/** Slots for attempts to endpoints that have not answered promptly: half as many again as WEBHOOK_CONCURRENCY, never more. */
const unprovenSlots = (webhooks: WebhookSettings) => Math.max(1, Math.floor(webhooks.concurrency / 2));

/**
 * The webhooks worker's BullMQ concurrency: WEBHOOK_CONCURRENCY for fan-outs and endpoints that
 * answer, plus the unproven slots, so attempts that hang never take from the first.
 */
export const webhooksWorkerConcurrency = (webhooks: WebhookSettings) => webhooks.concurrency + unprovenSlots(webhooks);

export const gateFor = (ctx: AppContext): EndpointGate =>
  createEndpointGate(ctx.redis, ctx.config.redisPrefix, {
    endpointConcurrency: ctx.config.webhooks.endpointConcurrency,
    backoffMs: ctx.config.webhooks.endpointBackoffMs,
    attemptTimeoutMs: ctx.config.webhooks.attemptTimeoutMs,
    unprovenSlots: unprovenSlots(ctx.config.webhooks),
  });

/**
 * Parked jobs whose turn has come go from delayed to waiting. One still on its way to delayed is not
 * found there: it promotes itself once it arrives (see the webhooks processor).
 */
async function wake(queue: Queue, jobIds: string[]) {
  for (const jobId of jobIds) {
    const job = await queue.getJob(jobId);
    await job?.promote().catch(() => {});
  }
}

/**
 * One worker process's delivery jobs, each attempted only when its endpoint's gate admits it (see
 * gate.ts); otherwise the job is parked and told when to come back at the latest. A redelivery asked
 * for from the dashboard is not held by the endpoint's pause: it is how someone who fixed their
 * receiver checks it.
 */
export function createDispatcher(ctx: AppContext, gate: EndpointGate = gateFor(ctx)) {
  const recipientOf = new Map<string, Recipient>();
  /** What a fan-out in this process just queued: their first turn needs no query either. */
  const remember = (queued: ({ id: string } & Recipient)[]) => {
    for (const { id, endpointId, ownerId } of queued) keep(recipientOf, id, { endpointId, ownerId }, KNOWN_MESSAGES);
  };
  const handBack = (jobIds: string[]) => {
    if (!jobIds.length || !ctx.webhookQueue) return;
    wake(ctx.webhookQueue, jobIds).catch((error) => ctx.log.warn({ err: error }, 'parked webhook jobs not woken'));
  };
  async function dispatch(job: {
    jobId: string;
    queuedAt: number;
    messageId: string;
    lastAttempt: boolean;
    redelivery: boolean;
  }): Promise<Dispatch> {
    let recipient = recipientOf.get(job.messageId);
    if (!recipient) {
      const [row] = await ctx.db
        .select({ endpointId: webhookMessages.endpointId, ownerId: webhookEndpoints.ownerId })
        .from(webhookMessages)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookMessages.endpointId))
        .where(eq(webhookMessages.id, job.messageId))
        .limit(1);
      if (!row) return { outcome: { delivered: false, skipped: 'message or endpoint deleted' } };
      recipient = keep(recipientOf, job.messageId, row, KNOWN_MESSAGES);
    }
    const { endpointId, ownerId } = recipient;
    const admission = await gate.admit(endpointId, {
      jobId: job.jobId,
      queuedAt: job.queuedAt,
      ownerId,
      ignorePause: job.redelivery,
    });
    if (!admission.admitted) return { deferUntil: Math.round(admission.retryAt), endpointId };
    let verdict: AttemptVerdict = 'none';
    try {
      const outcome = await deliverMessage(ctx, job.messageId, {
        lastAttempt: job.lastAttempt,
        signal: admission.lease.signal,
      });
      verdict = verdictOf(outcome);
      if (outcome.skipped || outcome.delivered) recipientOf.delete(job.messageId);
      return { outcome };
    } finally {
      handBack(await gate.settle(admission.lease, verdict));
    }
  }
  return { dispatch, remember, isParked: gate.isParked };
}
