import type { IncomingMessage, RequestOptions } from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import {
  type Span as ApiSpan,
  type Attributes,
  type Context,
  context,
  createContextKey,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  type TextMapGetter,
  type TextMapPropagator,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { core, NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { BullMQOtel } from 'bullmq-otel';
import { setActiveTracing, type TracedProcess, type Tracing } from './active';
import { traceQueries } from './postgres';
import { withoutBullmqHousekeeping } from './sampler';
import { type IncomingTrust, incomingTrust } from './trust';

const TRACER = 'switchyard';
const PROVIDER_ATTRIBUTE = 'switchyard.provider';

/** Incoming requests nobody follows a swap through: probes, scrapes and Next's static files. */
const UNTRACED_PATHS = /^\/(api\/health|api\/metrics|_next\/)/;

/** URL attributes whose query string may name a wallet (history `?wallet=`, a provider's quote parameters). */
const URL_ATTRIBUTES = ['http.url', 'url.full', 'http.target'];

/**
 * Query strings never leave the process: paths say which call it was, and the values in a query
 * (wallets, amounts) are nothing a log line carries either.
 */
class QueryStringScrubber implements SpanProcessor {
  onStart(span: Span): void {
    const attributes: Attributes = span.attributes;
    for (const key of URL_ATTRIBUTES) {
      const value = attributes[key];
      if (typeof value === 'string' && value.includes('?')) span.setAttribute(key, value.slice(0, value.indexOf('?')));
    }
    if (attributes['url.query'] !== undefined) span.setAttribute('url.query', 'REDACTED');
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const INHERITED_ATTRIBUTES = createContextKey('switchyard.inherited-attributes');

/** Attributes a unit of work (a poll) put on its context are carried by every span it starts: its provider calls, its SQL. */
class InheritedAttributes implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const attributes = parentContext.getValue(INHERITED_ATTRIBUTES) as Attributes | undefined;
    if (attributes) span.setAttributes(attributes);
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const w3c = new core.W3CTraceContextPropagator();

/** Incoming request headers from a trusted peer (OTEL_TRUSTED_PARENTS): the only carriers a parent is read from. */
const trustedCarriers = new WeakSet<object>();

/**
 * The process's propagator. Incoming, only a trusted peer's `traceparent` and `tracestate` are read,
 * and `baggage` never: an outsider neither decides what is kept nor adds to our context (their
 * `traceparent` becomes a link at most). Outgoing, nothing is written: providers and webhook receivers
 * are third parties. Jobs carry their trace through `jobTelemetry`, which writes the W3C format itself.
 */
class TrustedParentsOnly implements TextMapPropagator {
  inject(): void {}
  extract(active: Context, carrier: unknown, getter: TextMapGetter): Context {
    const trusted = typeof carrier === 'object' && carrier !== null && trustedCarriers.has(carrier);
    return trusted ? w3c.extract(active, carrier, getter) : active;
  }
  fields(): string[] {
    return [];
  }
}

/** BullMQ's telemetry, carrying a job's trace in its metadata with the W3C format rather than the process's propagator. */
function jobTelemetry(): BullMQOtel {
  const telemetry = new BullMQOtel({ tracerName: TRACER });
  telemetry.contextManager.getMetadata = (active: Context) => {
    const carrier: Record<string, string> = {};
    w3c.inject(active, carrier, defaultTextMapSetter);
    return JSON.stringify(carrier);
  };
  telemetry.contextManager.fromMetadata = (active: Context, metadata: string) =>
    w3c.extract(active, JSON.parse(metadata), defaultTextMapGetter);
  return telemetry;
}

/** `host[:port]` as `URL.host` writes it: the key providers are named under (`nameUpstream`). */
function hostKey(options: RequestOptions): { key: string; origin: string } {
  const protocol = options.protocol ?? 'http:';
  const hostname = options.hostname ?? options.host ?? '';
  const defaultPort = protocol === 'https:' ? 443 : 80;
  const port = Number(options.port ?? defaultPort);
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  return { key: port === defaultPort ? host : `${host}:${port}`, origin: `${protocol}//${host}:${port}` };
}

/** The incoming request's client address by the rate limiter's rule; a trusted peer's headers may carry a parent. */
function incomingAttributes(trust: IncomingTrust, request: IncomingMessage): Attributes {
  const address = trust.clientAddress(request);
  if (trust.trusts(address)) trustedCarriers.add(request.headers);
  return { 'client.address': address };
}

/** An outsider's `traceparent` on a span we keep: a link to their trace, never its parent. */
function linkOutsideParent(span: ApiSpan, request: IncomingMessage) {
  if (trustedCarriers.has(request.headers) || !span.isRecording()) return;
  const outside = trace.getSpanContext(w3c.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter));
  if (outside && isSpanContextValid(outside)) span.addLink({ context: outside });
}

const tracesUrl = (endpoint: string) => new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;

/**
 * The SDK with the standard instrumentations this product's modules can use: node:http (the incoming
 * request, continuing a trusted peer's W3C `traceparent`, and every provider call), ioredis (inside a traced
 * operation only), BullMQ through its own telemetry option (a job's runs continue the trace that
 * enqueued it), and postgres.js through `traceQueries` (it has no instrumentation of its own).
 */
export async function startSdk(
  options: { endpoint: string; sampleRatio: number; trustedParents: string[]; trustProxy: boolean },
  service: TracedProcess,
): Promise<Tracing> {
  const upstreams = new Map<string, string>();
  const trust = incomingTrust(options);
  const sdk = new NodeSDK({
    serviceName: `switchyard-${service}`,
    sampler: withoutBullmqHousekeeping(options.sampleRatio),
    textMapPropagator: new TrustedParentsOnly(),
    spanProcessors: [
      new QueryStringScrubber(),
      new InheritedAttributes(),
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(options.endpoint) }) }),
    ],
    // Metrics stay Prometheus (`/api/metrics`) and logs stay pino on stdout: traces only here.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => service === 'worker' || UNTRACED_PATHS.test(request.url ?? ''),
        requireParentforOutgoingSpans: true,
        startIncomingSpanHook: (request) => incomingAttributes(trust, request),
        // A webhook URL's path may be its secret (Slack- and Discord-style receivers): only a provider's is kept.
        startOutgoingSpanHook: (request) => {
          const { key, origin } = hostKey(request);
          const provider = upstreams.get(key);
          return provider ? { [PROVIDER_ATTRIBUTE]: provider } : { 'url.full': origin };
        },
        requestHook: (span, request) => {
          if (!('getHeader' in request)) linkOutsideParent(span, request);
        },
      }),
      // The command alone: its keys and arguments may hold a client's rate-limit key or a job's payload.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  patchLoadedModules();
  await traceQueries(trace.getTracer(TRACER));

  setActiveTracing({
    queueTelemetry: jobTelemetry(),
    logFields() {
      const spanContext = trace.getSpan(context.active())?.spanContext();
      if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
      return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
    },
    annotate(attributes) {
      trace.getSpan(context.active())?.setAttributes(attributes);
    },
    withAttributes(attributes, work) {
      const active = context.active();
      trace.getSpan(active)?.setAttributes(attributes);
      const inherited = active.getValue(INHERITED_ATTRIBUTES) as Attributes | undefined;
      return context.with(active.setValue(INHERITED_ATTRIBUTES, { ...inherited, ...attributes }), work);
    },
    nameUpstream(host, provider) {
      upstreams.set(host, provider);
    },
  });
  return {
    async shutdown() {
      setActiveTracing(undefined);
      await sdk.shutdown();
    },
  };
}

/**
 * The instrumentations patch a module when it is `require`d after they start; this process imports
 * its modules as ES modules, which those hooks never see. Requiring them here hands each to its
 * instrumentation (ioredis is patched on its class's prototype, which every importer shares), and
 * node:http's ES module bindings are then synced to the patched functions.
 */
function patchLoadedModules() {
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'ioredis']) require(name);
  syncBuiltinESMExports();
}
