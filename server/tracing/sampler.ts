import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api';
import { ParentBasedSampler, type Sampler, SamplingDecision } from '@opentelemetry/sdk-trace';

/**
 * BullMQ's worker loop traces its own housekeeping: an idle fetch every few seconds and the stalled
 * jobs check, each a trace of its own that follows no request or job. Jobs it fetches keep the trace
 * they were enqueued in (those spans have a parent and are kept).
 */
const HOUSEKEEPING = /^(getNextJob|startStalledCheckTimer|moveStalledJobsToWait) /;

class RootSampler implements Sampler {
  shouldSample(_context: Context, _traceId: string, spanName: string, _kind: SpanKind, _a: Attributes, _l: Link[]) {
    return {
      decision: HOUSEKEEPING.test(spanName) ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
    };
  }
  toString() {
    return 'SwitchyardRootSampler';
  }
}

/** Every trace, less BullMQ's housekeeping roots; a span with a parent follows its parent's decision. */
export const withoutBullmqHousekeeping = () => new ParentBasedSampler({ root: new RootSampler() });
