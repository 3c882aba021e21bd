import { type Logger, pino } from 'pino';

export type { Logger };

/** JSON lines on stdout; child loggers carry the request id or transaction id. */
export function createLogger(level: string, base: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { service: 'switchyard', ...base }, timestamp: pino.stdTimeFunctions.isoTime });
}
