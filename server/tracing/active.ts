import type { Telemetry } from 'bullmq';

export type TracedProcess = 'web' | 'api' | 'worker';

export interface Tracing {
  /** Exports the spans still buffered and stops; the last step of a process's stop. */
  shutdown(): Promise<void>;
}

/** What the rest of the code may ask of tracing once it runs in this process. */
export interface ActiveTracing {
  /** BullMQ's `telemetry` option: every queue and worker of the process passes it. */
  queueTelemetry: Telemetry;
  /** `trace_id` and `span_id` of the span active now, for a log line; undefined outside any span. */
  logFields(): { trace_id: string; span_id: string } | undefined;
  /** Adds attributes (a transaction id, a provider) to the span active now. */
  annotate(attributes: Record<string, string>): void;
  /** Runs `work` with `attributes` on the span active now and on every span started inside it. */
  withAttributes<T>(attributes: Record<string, string>, work: () => T): T;
  /** Calls to this origin (`host[:port]`) are a provider's: their spans carry `switchyard.provider`. */
  nameUpstream(host: string, provider: string): void;
}

/**
 * On `globalThis` rather than in a module variable: Next bundles its own copy of the modules that
 * read this, and they must see what the process's entry point started. Unset (tracing off), every
 * caller's check is one property read and nothing of OpenTelemetry is loaded.
 */
const KEY = Symbol.for('switchyard.tracing');

export function activeTracing(): ActiveTracing | undefined {
  return (globalThis as { [KEY]?: ActiveTracing })[KEY];
}

export function setActiveTracing(tracing: ActiveTracing | undefined): void {
  (globalThis as { [KEY]?: ActiveTracing })[KEY] = tracing;
}
