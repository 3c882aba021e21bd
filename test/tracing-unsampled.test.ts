import { randomBytes } from 'node:crypto';
import { createServer, get, type Server } from 'node:http';
import Module from 'node:module';
import { context, ROOT_CONTEXT, type Span, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { ParentBasedSampler } from '@opentelemetry/sdk-trace';
import { getTracer as nextTracer } from 'next/dist/server/lib/trace/tracer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../server/lifecycle';
import type { Tracing } from '../server/tracing/active';
import { startSdk } from '../server/tracing/sdk';
import { startTestApp, type TestApp } from './support/app';
import { startOtlpReceiver } from './support/otlp-receiver';

/**
 * Tracing you can leave on: a request whose trace is dropped costs one random draw at its root and
 * nothing else. Every span started anywhere asks the sampler first, so its questions count the spans a
 * request starts: the SDK runs in this process at a 0 ratio, in front of a real app, Postgres and Redis.
 */
const asked: string[] = [];
const shouldSample = ParentBasedSampler.prototype.shouldSample;
ParentBasedSampler.prototype.shouldSample = function counted(this: ParentBasedSampler, ...args) {
  asked.push(args[2]);
  return shouldSample.apply(this, args);
};

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let tracing: Tracing;
let t: TestApp;
let probe: Server;
let probeUrl: string;
/** The active span in each request's work, as the work saw it. */
const seen: (Span | undefined)[] = [];

/** A request's work: a SQL statement, a Redis command and a call to another server. */
async function work() {
  seen.push(trace.getSpan(context.active()));
  await t.app.sql`select 1`;
  await t.app.redis.ping();
  await new Promise<void>((resolve, reject) =>
    get(`${t.baseUrl}/api/health`, (res) => res.resume().on('end', resolve)).on('error', reject),
  );
}

/** `require` and `process.getBuiltinModule` as they were before the SDK started. */
let requireBefore: unknown;
let getBuiltinModuleBefore: unknown;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  requireBefore = Module.prototype.require;
  getBuiltinModuleBefore = process.getBuiltinModule;
  tracing = await startSdk(
    { endpoint: receiver.endpoint, sampleRatio: 0, trustedParents: [], trustProxy: false },
    'api',
  );
  t = await startTestApp();
  probe = createServer((_req, res) => {
    work().then(
      () => res.end('ok'),
      (error) => res.writeHead(500).end(String(error)),
    );
  });
  probeUrl = `http://127.0.0.1:${await listen(probe, 0, '127.0.0.1')}/work`;
});

afterAll(async () => {
  probe?.closeAllConnections();
  await new Promise((resolve) => probe?.close(resolve));
  await t?.stop();
  await tracing?.shutdown();
  await receiver?.close();
});

describe('a request whose trace is dropped', () => {
  it('starts no span at all: none at its root, none for its SQL, Redis command or outgoing call', async () => {
    asked.length = 0;
    const res = await fetch(probeUrl);
    expect(await res.text()).toBe('ok');
    expect(asked).toEqual([]);
  });

  it('runs outside any span or context, and a job it enqueues carries no trace', async () => {
    seen.length = 0;
    await (await fetch(probeUrl)).text();
    expect(seen).toEqual([undefined]);
    // What BullMQ does when it adds a job: a producer span with no parent, which the sampler drops.
    asked.length = 0;
    const producer = trace.getTracer('bullmq').startSpan('add tracking.poll', { kind: SpanKind.PRODUCER });
    expect(asked).toEqual(['add tracking.poll']);
    expect(producer.isRecording()).toBe(false);
    expect(producer.spanContext().traceFlags).toBe(TraceFlags.NONE);
  });
  it('never turns on the context storage: health probes and dropped requests enter no context at all', async () => {
    // Once any context is entered, AsyncLocalStorage's hooks tax every async resource of the process for good
    // (its storage's `enabled`); the Next tests below enter one on purpose, so this runs before them.
    const storage = (
      context as unknown as { _getContextManager(): { _asyncLocalStorage: { enabled: boolean } } }
    )._getContextManager()._asyncLocalStorage;
    for (let i = 0; i < 3; i++) {
      await (await fetch(`${t.baseUrl}/api/health`)).text();
      await (await fetch(probeUrl)).text();
    }
    expect(storage.enabled).toBe(false);
  });
});

describe('the instrumentation’s require hook', () => {
  it('is gone once http and https are patched: a later require costs what it costs untraced', () => {
    expect(Module.prototype.require).toBe(requireBefore);
    expect(process.getBuiltinModule).toBe(getBuiltinModuleBefore);
  });
});

describe('Next’s own spans', () => {
  const under = (traceFlags: TraceFlags) => {
    const parent = { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), traceFlags };
    const span = trace.getTracer('test').startSpan('request', {}, trace.setSpanContext(ROOT_CONTEXT, parent));
    return trace.setSpan(ROOT_CONTEXT, span);
  };
  const handleRequest = () => nextTracer().trace('BaseServer.handleRequest', async () => 'handled');

  it('are not started under a span the sampler dropped: Next does no tracing work for that request', async () => {
    asked.length = 0;
    expect(await context.with(under(TraceFlags.NONE), handleRequest)).toBe('handled');
    expect(asked).toEqual(['request']);
  });

  it('are started under a kept span', async () => {
    asked.length = 0;
    expect(await context.with(under(TraceFlags.SAMPLED), handleRequest)).toBe('handled');
    expect(asked).toEqual(['request', 'BaseServer.handleRequest']);
  });
});
