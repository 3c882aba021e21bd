import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import type { Worker } from 'node:worker_threads';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../../test/support/otlp-receiver';
import { listen } from '../lifecycle';
import { ExportThread } from './export-thread';

/** Finished spans, as a span processor hands them to its exporter. */
function finishedSpans(names: string[]) {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  const tracer = provider.getTracer('export-thread-test');
  for (const name of names) tracer.startSpan(name).end();
  return memory.getFinishedSpans();
}

const exported = (exporter: ExportThread, spans: ReturnType<typeof finishedSpans>) =>
  new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));

describe('ExportThread', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());

  it('sends spans to the collector from its own thread: the serving thread makes no HTTP request', async () => {
    const requestsHere: unknown[] = [];
    const onRequest = (message: unknown) => requestsHere.push(message);
    subscribe('http.client.request.start', onRequest);
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-collector-key=test-key';
    const exporter = new ExportThread(`${receiver.endpoint}/v1/traces`);
    delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
    try {
      const result = await exported(exporter, finishedSpans(['first', 'second']));
      expect(result.code).toBe(0);
      expect(receiver.spans.map((s) => s.name).sort()).toEqual(['first', 'second']);
      // The SDK's own variables still apply (a vendor's API key).
      expect(receiver.headers.at(-1)?.['x-collector-key']).toBe('test-key');
      expect(requestsHere).toEqual([]);
    } finally {
      unsubscribe('http.client.request.start', onRequest);
      await exporter.shutdown();
    }
  });

  it('reports an export the collector refuses, and still shuts down', async () => {
    const refusing = createServer((_req, res) => res.writeHead(400).end());
    const port = await listen(refusing, 0, '127.0.0.1');
    const exporter = new ExportThread(`http://127.0.0.1:${port}/v1/traces`);
    try {
      const result = await exported(exporter, finishedSpans(['lost']));
      expect(result.code).toBe(1);
      expect(result.error?.message).toMatch(/Bad Request|400/);
    } finally {
      await exporter.shutdown();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
    const afterShutdown = await exported(exporter, finishedSpans(['late']));
    expect(afterShutdown.code).toBe(1);
  });

  it('fails what was in flight when its thread stops, refuses what comes after, and still shuts down', async () => {
    const hanging = createServer(() => {});
    const port = await listen(hanging, 0, '127.0.0.1');
    const exporter = new ExportThread(`http://127.0.0.1:${port}/v1/traces`);
    const arrived = new Promise<void>((resolve) => hanging.once('request', () => resolve()));
    try {
      const inFlight = exported(exporter, finishedSpans(['in flight']));
      await arrived;
      await (exporter as unknown as { thread: Worker }).thread.terminate();
      const result = await inFlight;
      expect(result.code).toBe(1);
      expect(result.error?.message).toMatch(/export thread stopped/);
      const after = await exported(exporter, finishedSpans(['after']));
      expect(after.code).toBe(1);
      expect(after.error?.message).toMatch(/has stopped/);
    } finally {
      await exporter.shutdown();
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('answers forceFlush once every export posted has been answered', async () => {
    const before = receiver.spans.length;
    const exporter = new ExportThread(`${receiver.endpoint}/v1/traces`);
    try {
      const results: number[] = [];
      for (const name of ['a', 'b', 'c']) exporter.export(finishedSpans([name]), (r) => results.push(r.code));
      await exporter.forceFlush();
      expect(results).toEqual([0, 0, 0]);
      expect(receiver.spans.length - before).toBe(3);
    } finally {
      await exporter.shutdown();
    }
  });
});
