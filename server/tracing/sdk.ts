import { createRequire, syncBuiltinESMExports } from 'node:module';
import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  isSpanContextValid,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { BullMQOtel } from 'bullmq-otel';
import { setActiveTracing, type TracedProcess, type Tracing } from './active';
import { traceQueries } from './postgres';
import { withoutBullmqHousekeeping } from './sampler';

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

const tracesUrl = (endpoint: string) => new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;

/**
 * The SDK with the standard instrumentations this product's modules can use: node:http (the incoming
 * request, continuing a W3C `traceparent`, and every provider call), ioredis (inside a traced
 * operation only), BullMQ through its own telemetry option (a job's runs continue the trace that
 * enqueued it), and postgres.js through `traceQueries` (it has no instrumentation of its own).
 */
export async function startSdk(
  { endpoint, sampleRatio }: { endpoint: string; sampleRatio: number },
  service: TracedProcess,
): Promise<Tracing> {
  const upstreams = new Map<string, string>();
  const sdk = new NodeSDK({
    serviceName: `switchyard-${service}`,
    sampler: withoutBullmqHousekeeping(sampleRatio),
    spanProcessors: [
      new QueryStringScrubber(),
      new InheritedAttributes(),
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(endpoint) }) }),
    ],
    // Metrics stay Prometheus (`/api/metrics`) and logs stay pino on stdout: traces only here.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => service === 'worker' || UNTRACED_PATHS.test(request.url ?? ''),
        requireParentforOutgoingSpans: true,
        requestHook: (span, request) => {
          if (!('getHeader' in request)) return;
          const provider = upstreams.get(String(request.getHeader('host') ?? ''));
          if (provider) span.setAttribute(PROVIDER_ATTRIBUTE, provider);
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
    queueTelemetry: new BullMQOtel({ tracerName: TRACER }),
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
