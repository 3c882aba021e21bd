import { type IncomingMessage, Server, type ServerResponse } from 'node:http';
import {
  type Context,
  context,
  defaultTextMapGetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { IncomingTrust } from './trust';

const PATCHED = Symbol.for('switchyard.tracing.incoming');

/** Incoming requests nobody follows a swap through: probes, scrapes and Next's static files. */
const UNTRACED_PATHS = /^\/(api\/health|api\/metrics|_next\/)/;

/**
 * A server span per incoming request, in place of the node:http instrumentation's. Sampling is decided
 * once, here, before anything is made: a new trace is kept at the ratio (`keepsInWindows`), and a request that starts
 * none runs outside OpenTelemetry altogether (no span, no ids, no context entry), so its SQL, Redis
 * commands, provider calls and Next's own spans start nothing (they start only under a kept span) and
 * the jobs it enqueues carry no trace (the sampler drops a root producer span). A kept request's span
 * reaches the sampler as a SERVER root, which it keeps (`sampler.ts`). Only a trusted peer's
 * `traceparent` (OTEL_TRUSTED_PARENTS) is a parent, whose decision it follows; anyone else's becomes a
 * link on a span we keep.
 */
export function traceIncomingRequests(tracer: Tracer, peers: Peers, keepNewTrace: () => boolean) {
  const prototype = Server.prototype as Server & { [PATCHED]?: true };
  if (prototype[PATCHED]) return;
  prototype[PATCHED] = true;
  const emit = prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  prototype.emit = function emitTraced(this: Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [request, response] = args as [IncomingMessage, ServerResponse];
    // Not even a suppressing context: entering any context turns on AsyncLocalStorage's hooks, which then tax
    // every async resource of the process until no kept request holds them (context.ts). Outside a kept span
    // nothing below starts a span anyway.
    if (UNTRACED_PATHS.test(request.url ?? '')) return emit.call(this, event, ...args);
    const parent = trustedParent(request, peers);
    if (parent === ROOT_CONTEXT && !keepNewTrace()) return emit.call(this, event, ...args);
    const span = tracer.startSpan(request.method ?? 'GET', { kind: SpanKind.SERVER }, parent);
    const active = trace.setSpan(parent, span);
    response.once('close', peers.hold());
    if (span.isRecording()) recordRequest(span, request, response, { ...peers, continued: parent !== ROOT_CONTEXT });
    return context.with(active, emit, this, event, ...args);
  };
}

/** Who is believed (`trust`), how a `traceparent` is read (`w3c`), and how a request keeps its context flowing until its response closes (`hold`). */
interface Peers {
  trust: IncomingTrust;
  w3c: TextMapPropagator;
  hold: () => () => void;
}

const remoteParent = (request: IncomingMessage, { w3c }: Peers) =>
  w3c.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);

function trustedParent(request: IncomingMessage, peers: Peers): Context {
  if (request.headers.traceparent === undefined) return ROOT_CONTEXT;
  return peers.trust.trusts(peers.trust.clientAddress(request)) ? remoteParent(request, peers) : ROOT_CONTEXT;
}

/**
 * What a kept request's span says: method, path (never the query), client address, status; an outsider's
 * parent as a link. The request and response are not bound to the span's context (`context.bind` on an
 * emitter gives the object methods of its own): a kept request's objects then had another hidden class than
 * every other request's, and V8 threw away code it had optimized for theirs (header reads and writes,
 * `emit`) each time one came by. The handler's own work runs in the context (`context.with` below and
 * every promise made in it); a listener the handler adds runs in the emitter's.
 */
function recordRequest(
  span: Span,
  request: IncomingMessage,
  response: ServerResponse,
  peers: Peers & { continued: boolean },
) {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  span.setAttributes({
    'http.request.method': request.method ?? 'GET',
    'url.scheme': 'http',
    'url.path': query < 0 ? url : url.slice(0, query),
    'client.address': peers.trust.clientAddress(request),
  });
  if (!peers.continued && request.headers.traceparent !== undefined) {
    const outside = trace.getSpanContext(remoteParent(request, peers));
    if (outside && isSpanContextValid(outside)) span.addLink({ context: outside });
  }
  response.once('close', () => {
    span.setAttribute('http.response.status_code', response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}
