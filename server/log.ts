import { AsyncLocalStorage } from 'node:async_hooks';
import { type Logger, pino } from 'pino';

export type { Logger };

/** Fields every log line written while handling one request or job carries (request id, transaction id). */
export const logContext = new AsyncLocalStorage<Record<string, string>>();

/** JSON lines on stdout, each stamped with the current request's or job's ids. */
export function createLogger(level: string, base: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'switchyard', ...base },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => logContext.getStore() ?? {},
  });
}
