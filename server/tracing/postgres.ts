import { createRequire } from 'node:module';
import { SpanKind, type Tracer } from '@opentelemetry/api';
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import postgres from 'postgres';
import { endWhenSettled, keptContext, type Settles } from './client-spans';

/** The parts of postgres.js's `Query` (a Promise run on first `then`) that a statement's span needs. */
interface QueryInternals extends Settles {
  executed: boolean;
  strings: readonly string[];
  /** The statement as sent, `$1`-style placeholders and no values; set once a connection built it. */
  string?: string;
  handle(): Promise<void>;
}

const PATCHED = Symbol.for('switchyard.tracing.postgres');
const MAX_QUERY_TEXT = 2000;

/** `Query.prototype` of one copy of the driver: a query made and never run (nothing connects). */
function queryPrototype(create: typeof postgres): QueryInternals & { [PATCHED]?: true } {
  const sql = create({ max: 1, onnotice: () => {} });
  const prototype = Object.getPrototypeOf(sql`select 1`);
  void sql.end();
  return prototype;
}

/**
 * A client span per SQL statement run inside a kept trace. postgres.js has no OpenTelemetry
 * instrumentation (the one package on npm for it, otel-instrumentation-postgres 1.0.0, shipped once
 * and without the ES module its `import` entry names), so this wraps the one method every statement
 * starts through, `Query.prototype.handle`, in both copies of the driver a process may load (the ES
 * module ours import, the CommonJS one a bundle may require). Bound values are never recorded.
 */
export async function traceQueries(tracer: Tracer) {
  const copies = [postgres, createRequire(import.meta.url)('postgres') as typeof postgres];
  for (const prototype of new Set(copies.map(queryPrototype))) {
    if (prototype[PATCHED]) continue;
    prototype[PATCHED] = true;
    const handle = prototype.handle;
    prototype.handle = function tracedHandle(this: QueryInternals) {
      if (!this.executed) startStatementSpan(this, tracer);
      return handle.call(this);
    };
  }
}

function startStatementSpan(query: QueryInternals, tracer: Tracer) {
  const parent = keptContext();
  if (!parent) return;
  const operation = /^\s*([a-z]+)/i.exec(query.strings[0] ?? '')?.[1]?.toUpperCase() ?? 'QUERY';
  const span = tracer.startSpan(
    operation,
    {
      kind: SpanKind.CLIENT,
      attributes: { [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL, [ATTR_DB_OPERATION_NAME]: operation },
    },
    parent,
  );
  endWhenSettled(query, span, (error) => {
    if (query.string) span.setAttribute(ATTR_DB_QUERY_TEXT, query.string.slice(0, MAX_QUERY_TEXT));
    if (!error) return;
    // The SQLSTATE only: a driver's message may quote a value that was bound.
    const code = String((error as { code?: unknown })?.code ?? 'unknown');
    span.setAttributes({ [ATTR_ERROR_TYPE]: code, [ATTR_DB_RESPONSE_STATUS_CODE]: code });
  });
}
