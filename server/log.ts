import { AsyncLocalStorage } from 'node:async_hooks';
import { type DestinationStream, type Logger, pino } from 'pino';
import { activeTracing } from './tracing/active';

export type { Logger };

/** Fields every log line written while handling one request or job carries (request id, transaction id). */
export const logContext = new AsyncLocalStorage<Record<string, string>>();

const SECRET_KEYS = ['token', 'password', 'cookie', 'authorization', 'secret', 'apiKey'];
const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
];

/**
 * Driver and ORM errors quote their query's parameters (a session token, a password hash) and a
 * request's cookies may be echoed back; neither may reach a log line.
 */
export function scrubSecrets(text: string): string {
  return text
    .replace(/(params:)[^\n]*/gi, '$1 [redacted]')
    .replace(/((?:session_token|session_data|dont_remember)=)[^;\s"]+/gi, '$1[redacted]')
    .replace(/((?:bearer|basic)\s+)[\w.~+/=-]+/gi, '$1[redacted]');
}

/** Keys whose values are dropped wherever they appear: a query's bound parameters, credentials. */
const SCRUBBED_KEYS = new Set(['params', 'parameters', ...SECRET_KEYS.map((k) => k.toLowerCase())]);

export function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (!value || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SCRUBBED_KEYS.has(k.toLowerCase()) ? '[redacted]' : scrubDeep(v, depth + 1),
    ]),
  );
}

const scrubbedError = (error: unknown) => scrubDeep(pino.stdSerializers.err(error as Error));

/** The request's or job's ids; with tracing on, also the active span's `trace_id` and `span_id`. */
function contextFields(): () => Record<string, string> {
  const tracing = activeTracing();
  if (!tracing) return () => logContext.getStore() ?? {};
  return () => {
    const ids = tracing.logFields();
    const fields = logContext.getStore();
    return ids ? { ...fields, ...ids } : (fields ?? {});
  };
}

/** JSON lines on stdout (or `destination`), each stamped with the current request's or job's ids. */
export function createLogger(
  level: string,
  base: Record<string, unknown> = {},
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    base: { service: 'switchyard', ...base },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: contextFields(),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: scrubbedError, error: scrubbedError },
  };
  return destination ? pino(options, destination) : pino(options);
}
