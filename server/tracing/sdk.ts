import type { RequestOptions } from 'node:http';
import Module, { createRequire, syncBuiltinESMExports } from 'node:module';
import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  defaultTextMapGetter,
  defaultTextMapSetter,
  type ProxyTracerProvider,
  ROOT_CONTEXT,
  type TextMapPropagator,
  type TracerOptions,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { core, NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { BullMQOtel } from 'bullmq-otel';
import { createLogger, type Logger } from '../log';
import { setActiveTracing, type TracedProcess, type Tracing } from './active';
import { keptContext } from './client-spans';
import { ReleasingContextManager } from './context';
import { ExportThread } from './export-thread';
import { traceIncomingRequests } from './incoming';
import { traceQueries } from './postgres';
import { traceRedisCommands } from './redis';
import { reportTracingErrors } from './report-errors';
import { keepsInWindows, withoutBullmqHousekeeping } from './sampler';
import { incomingTrust } from './trust';

const TRACER = 'switchyard';
const PROVIDER_ATTRIBUTE = 'switchyard.provider';

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

/**
 * The process's propagator: it reads and writes nothing. Outgoing, providers and webhook receivers are
 * third parties; incoming, `traceIncomingRequests` reads a trusted peer's `traceparent` itself, and
 * `baggage` never. Jobs carry their trace through `jobTelemetry`, which writes the W3C format itself.
 */
class NoPropagation implements TextMapPropagator {
  inject(): void {}
  extract(active: Context): Context {
    return active;
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

/** `OTEL_BSP_*`, as the SDK reads them for a processor it makes itself (ours is made here). */
function batchOptionsFromEnv() {
  const read = (name: string) => {
    const value = core.getNumberFromEnv(name);
    return value !== undefined && value >= 0 ? value : undefined;
  };
  return {
    maxQueueSize: read('OTEL_BSP_MAX_QUEUE_SIZE'),
    scheduledDelayMillis: read('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: read('OTEL_BSP_EXPORT_TIMEOUT'),
    maxExportBatchSize: read('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  };
}

const tracesUrl = (endpoint: string) => new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;

/**
 * The SDK with the node:http instrumentation for outgoing calls (every provider call and webhook
 * delivery), BullMQ through its own telemetry option (a job's runs continue the trace that enqueued
 * it), and spans of our own where an instrumentation costs more than it tells: the incoming request
 * (`traceIncomingRequests`, where sampling is decided once), Redis commands and postgres.js statements.
 * A request the sampler drops starts no span below its root, nor attributes, nor context work.
 */
export async function startSdk(
  options: { endpoint: string; sampleRatio: number; trustedParents: string[]; trustProxy: boolean },
  service: TracedProcess,
  log: Pick<Logger, 'warn'> = createLogger('warn', { process: service }),
): Promise<Tracing> {
  core.setGlobalErrorHandler(reportTracingErrors(log));
  const upstreams = new Map<string, string>();
  const contextManager = new ReleasingContextManager({ releaseUnheld: service !== 'worker' });
  const makeSdk = () =>
    new NodeSDK({
      serviceName: `switchyard-${service}`,
      contextManager,
      sampler: withoutBullmqHousekeeping(options.sampleRatio),
      textMapPropagator: new NoPropagation(),
      spanProcessors: [
        new QueryStringScrubber(),
        new InheritedAttributes(),
        new BatchSpanProcessor({ exporter: new ExportThread(tracesUrl(options.endpoint)), ...batchOptionsFromEnv() }),
      ],
      // Metrics stay Prometheus (`/api/metrics`) and logs stay pino on stdout: traces only here.
      metricReaders: [],
      logRecordProcessors: [],
      instrumentations: [
        new HttpInstrumentation({
          disableIncomingRequestInstrumentation: true,
          ignoreOutgoingRequestHook: () => !keptContext(),
          // A webhook URL's path may be its secret (Slack- and Discord-style receivers): only a provider's is kept.
          startOutgoingSpanHook: (request) => {
            const { key, origin } = hostKey(request);
            const provider = upstreams.get(key);
            return provider ? { [PROVIDER_ATTRIBUTE]: provider } : { 'url.full': origin };
          },
        }),
      ],
    });
  const sdk = patchHttpOnce(makeSdk);
  letNextTraceKeptRequestsOnly();
  const tracer = trace.getTracer(TRACER);
  // A worker's only server is its health probe.
  if (service !== 'worker') {
    traceIncomingRequests(
      tracer,
      { trust: incomingTrust(options), w3c, hold: () => contextManager.hold() },
      keepsInWindows(options.sampleRatio),
    );
  }
  traceRedisCommands(tracer);
  await traceQueries(tracer);

  setActiveTracing({
    queueTelemetry: jobTelemetry(),
    logFields() {
      const spanContext = trace.getSpan(keptContext() ?? ROOT_CONTEXT)?.spanContext();
      return spanContext && { trace_id: spanContext.traceId, span_id: spanContext.spanId };
    },
    annotate(attributes) {
      trace.getSpan(context.active())?.setAttributes(attributes);
    },
    withAttributes(attributes, work) {
      const active = keptContext();
      if (!active) return work();
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
      // A collector that is down loses the last batch; that must not fail the process' stop.
      await sdk
        .shutdown()
        .catch((error: unknown) =>
          log.warn(
            { error: error instanceof Error ? error.message : String(error) },
            'tracing: the last spans were not exported at shutdown',
          ),
        );
    },
  };
}

/**
 * Next traces every request through spans of its own (each with context work, attribute objects and
 * promise chains) once a tracer provider is registered, unless that provider's class is named
 * `NoopTracerProvider`: then only a request whose active span is recording, one we keep (Next's
 * `isOpenTelemetryEnabled`). The provider registered is therefore a forwarder by that name.
 */
class NoopTracerProvider implements TracerProvider {
  constructor(private readonly provider: TracerProvider) {}
  getTracer(name: string, version?: string, options?: TracerOptions) {
    return this.provider.getTracer(name, version, options);
  }
}

function letNextTraceKeptRequestsOnly() {
  const registered = trace.getTracerProvider() as ProxyTracerProvider;
  registered.setDelegate(new NoopTracerProvider(registered.getDelegate()));
}

/**
 * The instrumentation patches a module when it is `require`d after it starts, through a hook on every
 * `require` and `process.getBuiltinModule` of the process; this process imports its modules as ES
 * modules, which that hook never sees. Requiring http and https here hands each to it (patched in place,
 * node:http's ES module bindings then synced to the patched functions), and the hook is then taken off:
 * left on, every later `require` resolved its module's path first, and Next requires modules while it
 * serves (bench `tracing`: a Next server that never kept a trace served ~0.9 of an untraced one).
 * Once per process, as each process starts tracing: the instrumentation's hook is a process-wide
 * singleton, so an SDK started again after this would find no hook to patch http with.
 */
function patchHttpOnce(makeSdk: () => NodeSDK): NodeSDK {
  // The hook goes on when the instrumentation is made, before the SDK starts.
  const { require: moduleRequire } = Module.prototype;
  const { getBuiltinModule } = process;
  const sdk = makeSdk();
  sdk.start();
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https']) require(name);
  syncBuiltinESMExports();
  Module.prototype.require = moduleRequire;
  process.getBuiltinModule = getBuiltinModule;
  return sdk;
}
