import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { core } from '@opentelemetry/sdk-node';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

type ExportResult = core.ExportResult;
const { ExportResultCode } = core;

/**
 * The thread's side: OpenTelemetry's own OTLP/HTTP export (endpoint, `OTEL_EXPORTER_OTLP_HEADERS`, timeout,
 * compression and retries as its variables say), handed request bodies already serialized.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { OTLPExporterBase } = require(workerData.modules.base);
const { convertLegacyHttpOptions, createOtlpHttpExportDelegate } = require(workerData.modules.nodeHttp);
const { JsonTraceSerializer } = require(workerData.modules.transformer);
const serialized = {
  serializeRequest: (request) => request.body,
  deserializeResponse: (data) => JsonTraceSerializer.deserializeResponse(data),
};
const exporter = new OTLPExporterBase(
  createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url: workerData.url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
    serialized,
    'otlp_http_span_exporter',
    { name: 'span', countItems: (request) => request.spans },
    undefined,
  ),
);
parentPort.on('message', (message) => {
  if (message.shutdown) {
    exporter.shutdown().finally(() => parentPort.postMessage({ shutdown: true }));
    return;
  }
  exporter.export(message, (result) =>
    parentPort.postMessage({ id: message.id, code: result.code, error: result.error && String(result.error.message ?? result.error) }),
  );
});
`;

interface Reply {
  id?: number;
  code?: core.ExportResultCode;
  error?: string;
  shutdown?: true;
}

/**
 * Spans sent to the collector from a thread of their own. Serialized here, posted there: the serving
 * thread never makes the export's HTTP request. Made on the serving thread, that request's client-side
 * objects (its socket, ClientRequest, response) went through the same stream and HTTP code as the
 * server's requests; code V8 had optimized for the server's objects alone was thrown away after every
 * export (bench `tracing`: a Next server keeping 1 % of traces deoptimized ~3× as often as an untraced one,
 * in bursts right after each export) and ran slower until optimized again.
 */
export class ExportThread implements SpanExporter {
  private readonly thread: Worker;
  private readonly pending = new Map<number, (result: ExportResult) => void>();
  private nextId = 0;
  private stopped: Promise<void> | undefined;
  private readonly exited: Promise<void>;
  private gone = false;

  constructor(url: string) {
    const require = createRequire(import.meta.url);
    this.thread = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: {
        url,
        modules: {
          base: require.resolve('@opentelemetry/otlp-exporter-base'),
          nodeHttp: require.resolve('@opentelemetry/otlp-exporter-base/node-http'),
          transformer: require.resolve('@opentelemetry/otlp-transformer'),
        },
      },
      // Not the process' flags (tsx's loader, a CPU profile): plain CommonJS runs here.
      execArgv: [],
    });
    this.thread.unref();
    this.thread.on('message', (reply: Reply) => {
      if (reply.id === undefined) return;
      const done = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      done?.({
        code: reply.code ?? ExportResultCode.FAILED,
        error: reply.error === undefined ? undefined : new Error(reply.error),
      });
    });
    const failAll = (error: Error) => {
      for (const done of this.pending.values()) done({ code: ExportResultCode.FAILED, error });
      this.pending.clear();
    };
    this.thread.on('error', failAll);
    this.exited = new Promise((resolve) =>
      this.thread.on('exit', () => {
        this.gone = true;
        failAll(new Error('the trace export thread stopped'));
        resolve();
      }),
    );
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.stopped || this.gone) {
      done({ code: ExportResultCode.FAILED, error: new Error('the trace exporter has stopped') });
      return;
    }
    const body = JsonTraceSerializer.serializeRequest(spans);
    if (!body) {
      done({ code: ExportResultCode.FAILED, error: new Error('spans not serialized') });
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, done);
    this.thread.postMessage({ id, body, spans: spans.length });
  }

  async forceFlush(): Promise<void> {
    await this.drained();
  }

  shutdown(): Promise<void> {
    this.stopped ??= this.drained().then(async () => {
      // The thread's exporter finishes what it has in flight, then the thread goes (or has gone already).
      const flushed = new Promise<void>((resolve) =>
        this.thread.on('message', (reply: Reply) => reply.shutdown && resolve()),
      );
      this.thread.postMessage({ shutdown: true });
      await Promise.race([flushed, this.exited]);
      await this.thread.terminate();
    });
    return this.stopped;
  }

  /** Resolves once every export posted so far has been answered. */
  private async drained(): Promise<void> {
    const answered = [...this.pending.keys()].map(
      (id) =>
        new Promise<void>((resolve) => {
          const done = this.pending.get(id);
          if (!done) return resolve();
          this.pending.set(id, (result) => {
            done(result);
            resolve();
          });
        }),
    );
    await Promise.all(answered);
  }
}
