import { createRequire } from 'node:module';
import { SpanKind, type Tracer } from '@opentelemetry/api';
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions';
import type { Command, Redis } from 'ioredis';
import { endWhenSettled, keptContext } from './client-spans';

const PATCHED = Symbol.for('switchyard.tracing.ioredis');
/** A command queued while offline is sent again once connected: one span for it, not two. */
const traced = new WeakSet<Command>();

/**
 * A client span per Redis command sent inside a kept trace, named by the command alone: its keys and
 * arguments may hold a client's rate-limit key or a job's payload. In place of the ioredis
 * instrumentation, which builds a span (and its attributes) for every command under any span, kept or
 * not. ioredis is CommonJS only, so its class's prototype is the one every importer shares.
 */
export function traceRedisCommands(tracer: Tracer) {
  const { Redis: RedisClass } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const prototype = RedisClass.prototype as Redis & { [PATCHED]?: true };
  if (prototype[PATCHED]) return;
  prototype[PATCHED] = true;
  const sendCommand = prototype.sendCommand;
  prototype.sendCommand = function tracedSendCommand(this: Redis, command: Command, ...rest) {
    const parent = keptContext();
    if (!parent || traced.has(command)) return sendCommand.call(this, command, ...rest);
    traced.add(command);
    const span = tracer.startSpan(
      command.name,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR_DB_SYSTEM_NAME]: 'redis',
          [ATTR_DB_OPERATION_NAME]: command.name,
          [ATTR_SERVER_ADDRESS]: this.options.host,
          [ATTR_SERVER_PORT]: this.options.port,
        },
      },
      parent,
    );
    endWhenSettled(command, span, (error) => {
      if (error) span.setAttribute(ATTR_ERROR_TYPE, (error as Error)?.name ?? 'unknown');
    });
    return sendCommand.call(this, command, ...rest);
  };
}
