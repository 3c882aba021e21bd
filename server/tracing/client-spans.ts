import { type Context, context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The active context when its span is being kept; undefined outside any span or inside one the sampler
 * dropped, where a driver's call starts no span of its own (no object, no attributes, no wrapping).
 */
export function keptContext(): Context | undefined {
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? active : undefined;
}

/** A driver's unit of work (a postgres.js query, an ioredis command), settled through its own two callbacks. */
export interface Settles {
  resolve(value: unknown): unknown;
  reject(error: unknown): unknown;
}

/** Ends `span` when `work` settles, after `finish` adds what is known by then (a failure's code). */
export function endWhenSettled(work: Settles, span: Span, finish: (error?: unknown) => void) {
  const { resolve, reject } = work;
  work.resolve = (value) => {
    finish();
    span.end();
    return resolve(value);
  };
  work.reject = (error) => {
    finish(error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    return reject(error);
  };
}
