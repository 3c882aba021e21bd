import type { BetterAuthOptions } from 'better-auth';
import type { AppContext } from '../context';
import { scrubDeep, scrubSecrets } from '../log';

type AuthLevel = 'debug' | 'info' | 'warn' | 'error';

const AUTH_LEVEL: Record<string, AuthLevel | undefined> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'error',
};

/** Better Auth logs through our pino logger, so its lines get the same redaction as ours. */
export function authLogger(app: AppContext): NonNullable<BetterAuthOptions['logger']> {
  const level = AUTH_LEVEL[app.config.logLevel];
  return {
    disabled: !level,
    level,
    log(logLevel, message, ...args) {
      const err = args.find((a) => a instanceof Error);
      const rest = args.filter((a) => a !== err);
      app.log[logLevel](
        { component: 'auth', err, ...(rest.length ? { args: scrubDeep(rest) } : {}) },
        scrubSecrets(message),
      );
    },
  };
}
