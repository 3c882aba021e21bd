import type { Logger } from '../log';

const REPORT_EVERY_MS = 60_000;

/**
 * OpenTelemetry's own errors (nearly always an export the collector refused or never answered) as a
 * warning on our log: without `OTEL_LOG_LEVEL` the SDK says nothing, and an operator whose collector is
 * unreachable would see no traces and no reason. At most one line a minute, counting the ones held back,
 * since a collector that is down fails every export (one every 5 s per process).
 */
export function reportTracingErrors(
  log: Pick<Logger, 'warn'>,
  now: () => number = Date.now,
  everyMs = REPORT_EVERY_MS,
): (error: unknown) => void {
  let reportedAt = Number.NEGATIVE_INFINITY;
  let heldBack = 0;
  return (error) => {
    const at = now();
    if (at - reportedAt < everyMs) {
      heldBack++;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    log.warn(
      { error: message, heldBack },
      'tracing: OpenTelemetry error (spans not exported, most often: is OTEL_EXPORTER_OTLP_ENDPOINT reachable?)',
    );
    reportedAt = at;
    heldBack = 0;
  };
}
