import type { Config } from '../config';
import { createLogger } from '../log';
import type { TracedProcess, Tracing } from './active';

/**
 * Starts OpenTelemetry tracing in this process when OTEL_EXPORTER_OTLP_ENDPOINT is set. Off, it loads
 * nothing and registers nothing: no SDK, no instrumentation, no context manager.
 */
export async function startTracing(config: Config, service: TracedProcess): Promise<Tracing | undefined> {
  if (!config.tracing.endpoint) return undefined;
  const { startSdk } = await import('./sdk');
  return startSdk(
    { ...config.tracing, endpoint: config.tracing.endpoint, trustProxy: config.trustProxy },
    service,
    createLogger(config.logLevel, { process: service }),
  );
}
