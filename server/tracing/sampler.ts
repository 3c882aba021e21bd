import { type Attributes, type Context, type Link, SpanKind } from '@opentelemetry/api';
import { ParentBasedSampler, type Sampler, SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';

/**
 * BullMQ's worker loop traces its own housekeeping: an idle fetch every few seconds and the stalled
 * jobs check, each a trace of its own that follows no request or job. Jobs it fetches keep the trace
 * they were enqueued in (those spans have a parent and are kept).
 */
const HOUSEKEEPING = /^(getNextJob|startStalledCheckTimer|moveStalledJobsToWait) /;

class RootSampler implements Sampler {
  private readonly ratio: TraceIdRatioBasedSampler;

  constructor(ratio: number) {
    this.ratio = new TraceIdRatioBasedSampler(ratio);
  }

  shouldSample(context: Context, traceId: string, spanName: string, kind: SpanKind, _a: Attributes, _l: Link[]) {
    // An incoming request's root is started only once `traceIncomingRequests` has kept it at the ratio.
    if (kind === SpanKind.SERVER) return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    // A job enqueued outside any kept request or job (one the root decision dropped) carries no trace.
    if (kind === SpanKind.PRODUCER || HOUSEKEEPING.test(spanName)) return { decision: SamplingDecision.NOT_RECORD };
    return this.ratio.shouldSample(context, traceId);
  }

  toString() {
    return `SwitchyardRootSampler{${this.ratio}}`;
  }
}

/**
 * `parentbased_traceidratio` less BullMQ's housekeeping roots: a new trace is kept at `ratio` (an incoming
 * request's by `traceIncomingRequests` before its span exists; a job run that follows no trace here), a
 * root producer span (a job enqueued by a dropped request) never, and a span with a parent follows its
 * parent's decision (a caller's sampled `traceparent`, a job's enqueuer).
 */
export const withoutBullmqHousekeeping = (ratio: number) => new ParentBasedSampler({ root: new RootSampler(ratio) });

/** How often a window of kept new traces comes round: `keepsInWindows`. */
export const SAMPLE_PERIOD_MS = 1000;

/**
 * Whether a request that starts a new trace now is kept: those that start inside one window of
 * `ratio × period` per period, each opening at a random time in its period and running on into the next
 * when it opens late. A request is kept at `ratio` whenever it arrives, at any time of the second (a
 * cron's request at :00 too), as with a coin per request, but the kept ones come together: while any kept
 * request is in flight Node runs the context storage's hook on every promise of the process (`context.ts`),
 * and kept requests spread one by one at a 1 % ratio cost the lean status path 89 µs of CPU a request
 * against 64 µs untraced (74 µs in windows).
 */
export function keepsInWindows(
  ratio: number,
  { periodMs = SAMPLE_PERIOD_MS, now = () => performance.now(), random = Math.random } = {},
): () => boolean {
  if (ratio >= 1) return () => true;
  if (!(ratio > 0)) return () => false;
  const windowMs = ratio * periodMs;
  const opening = (period: number) => period * periodMs + random() * periodMs;
  let period = Number.NaN;
  let opensAt = 0;
  // The previous period's window, for the part of it that runs into this one.
  let previousOpensAt = Number.NEGATIVE_INFINITY;
  return () => {
    const at = now();
    const current = Math.floor(at / periodMs);
    if (current !== period) {
      previousOpensAt = current === period + 1 ? opensAt : opening(current - 1);
      period = current;
      opensAt = opening(current);
    }
    return (at >= opensAt && at < opensAt + windowMs) || at < previousOpensAt + windowMs;
  };
}
