import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../server/config';
import { activeTracing } from '../server/tracing/active';
import { startTracing } from '../server/tracing/start';
import { startTestApp, type TestApp, testEnv } from './support/app';
import { ensureWebBuild, startBuiltWeb } from './support/built-web';
import { ETH_TO_BTC, WALLETS } from './support/fixtures';
import { waitForStatus } from './support/flows';
import { type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver';
import { freePort, httpOk, spawnEntry, stopChild, waitUntil } from './support/processes';

/**
 * One swap followed end to end as one trace: the execute request, the tracking job it enqueues, the
 * worker's polls, each provider call and SQL statement, all sent over OTLP/HTTP to a collector on
 * loopback by the real processes: the lean API server and a worker, then the built Next web process
 * and a worker.
 */
const FAST_TRACKING = {
  TRACKING_TIME_SCALE: '0.01',
  TRACKING_MIN_INTERVAL_MS: '100',
  WORKER_LOCK_DURATION_MS: '2000',
  SWEEP_INTERVAL_MS: '600000',
};
const SPAN_KIND = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;
/** The test stands for a load balancer or service of ours: its `traceparent` is continued only because it is trusted. */
const TRUSTING_THE_CALLER = { OTEL_TRUSTED_PARENTS: '127.0.0.1' };

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let api: ChildProcess;
let worker: ChildProcess;
let apiUrl: string;
let apiOutput = '';

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  t = await startTestApp(FAST_TRACKING);
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  const traced = {
    ...TRUSTING_THE_CALLER,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    SHUTDOWN_TIMEOUT_MS: '10000',
  };
  api = spawnEntry(
    'server/http/lean-server.ts',
    { ...t.env, ...traced, API_PORT: String(port), LOG_LEVEL: 'info' },
    'pipe',
  );
  api.stdout?.on('data', (chunk) => {
    apiOutput += chunk;
  });
  worker = spawnEntry('workers/main.ts', { ...t.env, ...traced, WORKER_HEALTH_PORT: '0' });
  expect(await waitUntil(httpOk(`${apiUrl}/api/health`), { timeoutMs: 80_000 })).toBe(true);
}, 100_000);

afterAll(async () => {
  await Promise.all([stopChild(api), stopChild(worker)]);
  await t?.stop();
  await receiver?.close();
}, 60_000);

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('a swap traced across the web and worker processes', () => {
  const traceId = hex(16);
  const callerSpanId = hex(8);
  let transactionId: string;
  let requestId: string | null;
  let trace: ReceivedSpan[];

  beforeAll(async () => {
    t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 3 });
    const locked = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    const executed = await fetch(`${apiUrl}/api/v1/quote/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: JSON.stringify({ lockId: locked.body.data.lockId }),
    });
    const body = await executed.json();
    expect(executed.status, JSON.stringify(body)).toBe(200);
    transactionId = body.data.transaction.id;
    requestId = executed.headers.get('x-request-id');
    await waitForStatus(t, transactionId, (tx) => tx.status === 'SUCCESS', { timeoutMs: 30_000 });
    // Stopping flushes each process's spans still buffered.
    await Promise.all([stopChild(api), stopChild(worker)]);
    trace = receiver.spans.filter((s) => s.traceId === traceId);
  }, 90_000);

  const byId = () => new Map(trace.map((s) => [s.spanId, s]));
  const ancestors = (span: ReceivedSpan) => {
    const spans = byId();
    const chain: ReceivedSpan[] = [];
    for (let parent = spans.get(span.parentSpanId ?? ''); parent; parent = spans.get(parent.parentSpanId ?? '')) {
      chain.push(parent);
    }
    return chain;
  };
  const executeSpan = () =>
    trace.find((s) => s.kind === SPAN_KIND.SERVER && s.service === 'switchyard-api') as ReceivedSpan;

  it('continues the caller’s traceparent: the execute request’s span is its child and names the swap', () => {
    const execute = executeSpan();
    expect(execute).toBeDefined();
    expect(execute.parentSpanId).toBe(callerSpanId);
    expect(execute.attributes).toMatchObject({
      'switchyard.transaction_id': transactionId,
      'switchyard.provider': 'RELAY',
    });
  });

  it('is one connected trace: every span’s parent is in it, up to the caller', () => {
    const ids = new Set(trace.map((s) => s.spanId));
    const orphans = trace.filter((s) => s.parentSpanId !== callerSpanId && !ids.has(s.parentSpanId ?? ''));
    expect(orphans.map((s) => `${s.service} ${s.name}`)).toEqual([]);
    expect(new Set(trace.map((s) => s.service))).toEqual(new Set(['switchyard-api', 'switchyard-worker']));
  });

  it('has the execute’s provider call and SQL statements as its descendants', () => {
    const execute = executeSpan();
    const under = trace.filter((s) => ancestors(s).includes(execute));
    const providerCall = under.find(
      (s) => s.kind === SPAN_KIND.CLIENT && s.attributes['switchyard.provider'] === 'RELAY',
    );
    expect(providerCall, 'the provider call at execute').toBeDefined();
    const statements = under.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(statements.length).toBeGreaterThan(0);
    expect(
      statements.every((s) => s.kind === SPAN_KIND.CLIENT && typeof s.attributes['db.query.text'] === 'string'),
    ).toBe(true);
  });

  it('links the execute to the tracking job it enqueued, and every poll back to that job', () => {
    const execute = executeSpan();
    const enqueued = trace.find((s) => s.kind === SPAN_KIND.PRODUCER && s.name.startsWith('add tracking'));
    expect(enqueued, 'the tracking job enqueued by execute').toBeDefined();
    expect(ancestors(enqueued as ReceivedSpan)).toContain(execute);
    expect(enqueued?.attributes['bullmq.job.id']).toBe(transactionId);

    const polls = trace.filter((s) => s.kind === SPAN_KIND.CONSUMER && s.name === 'process tracking');
    // The job runs once per poll until the swap settles (the simulator settles on its third status read).
    expect(polls.length).toBeGreaterThanOrEqual(3);
    for (const poll of polls) {
      expect(poll.service).toBe('switchyard-worker');
      expect(poll.parentSpanId).toBe(enqueued?.spanId);
      expect(poll.attributes['switchyard.transaction_id']).toBe(transactionId);
    }
    const pollsWithProviderCall = polls.filter((poll) =>
      trace.some(
        (s) =>
          s.kind === SPAN_KIND.CLIENT &&
          s.attributes['switchyard.provider'] === 'RELAY' &&
          s.attributes['switchyard.transaction_id'] === transactionId &&
          ancestors(s).includes(poll),
      ),
    );
    expect(pollsWithProviderCall.length).toBeGreaterThanOrEqual(3);
    const pollStatements = trace.filter(
      (s) => s.attributes['db.system.name'] === 'postgresql' && ancestors(s).some((a) => polls.includes(a)),
    );
    expect(pollStatements.length).toBeGreaterThan(0);
  });

  it('carries no wallet address and no query string in any attribute', () => {
    const values = trace.flatMap((s) => Object.values(s.attributes).map(String));
    for (const wallet of [WALLETS.evm, WALLETS.evm.toLowerCase(), WALLETS.bitcoin]) {
      expect(values.filter((v) => v.includes(wallet))).toEqual([]);
    }
    const urls = trace.flatMap((s) => ['url.full', 'http.url', 'http.target'].map((k) => s.attributes[k]));
    expect(urls.filter((u) => typeof u === 'string' && u.includes('?'))).toEqual([]);
  });

  it('stamps the execute request’s log lines with the trace and span ids beside the request id', () => {
    const lines = apiOutput
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const requestLines = lines.filter((l) => l.requestId === requestId);
    expect(requestLines.length).toBeGreaterThan(0);
    const spanIds = new Set(trace.map((s) => s.spanId));
    for (const line of requestLines) {
      expect(line.trace_id).toBe(traceId);
      expect(spanIds.has(line.span_id)).toBe(true);
    }
  });
});

describe('the same swap through the built Next web process', () => {
  it('continues the traceparent from the web process through the job to each poll', async () => {
    // This swap's polls must be this worker's: the lean server's (and its worker) are done.
    await Promise.all([stopChild(api), stopChild(worker)]);
    ensureWebBuild();
    const traced = { ...TRUSTING_THE_CALLER, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint };
    const web = await startBuiltWeb(t, traced);
    const nextWorker = spawnEntry('workers/main.ts', { ...t.env, ...traced, WORKER_HEALTH_PORT: '0' });
    const traceId = hex(16);
    const callerSpanId = hex(8);
    let transactionId: string;
    try {
      t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 3 });
      const locked = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
      expect(locked.status, JSON.stringify(locked.body)).toBe(200);
      const executed = await fetch(`${web.baseUrl}/api/v1/quote/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpanId}-01` },
        body: JSON.stringify({ lockId: locked.body.data.lockId }),
      });
      const body = await executed.json();
      expect(executed.status, JSON.stringify(body)).toBe(200);
      transactionId = body.data.transaction.id;
      await waitForStatus(t, transactionId, (tx) => tx.status === 'SUCCESS', { timeoutMs: 30_000 });
    } finally {
      await Promise.all([web.stop(), stopChild(nextWorker)]);
    }
    const trace = receiver.spans.filter((s) => s.traceId === traceId);
    // Next adds server spans of its own under the HTTP server span that continues the caller's.
    const server = trace.find((s) => s.kind === SPAN_KIND.SERVER && s.parentSpanId === callerSpanId);
    expect(server?.service, JSON.stringify(trace.map((s) => [s.service, s.kind, s.name]))).toBe('switchyard-web');
    const ids = new Set(trace.map((s) => s.spanId));
    expect(trace.filter((s) => s.parentSpanId !== callerSpanId && !ids.has(s.parentSpanId ?? ''))).toEqual([]);
    expect(
      trace.some((s) => s.service === 'switchyard-web' && s.attributes['switchyard.transaction_id'] === transactionId),
    ).toBe(true);
    const enqueued = trace.find((s) => s.kind === SPAN_KIND.PRODUCER && s.name.startsWith('add tracking'));
    expect(enqueued?.service).toBe('switchyard-web');
    const polls = trace.filter((s) => s.name === 'process tracking');
    expect(polls.length).toBeGreaterThanOrEqual(3);
    expect(polls.every((p) => p.parentSpanId === enqueued?.spanId && p.service === 'switchyard-worker')).toBe(true);
  }, 240_000);
});

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('starts nothing and registers nothing with OpenTelemetry, while the app serves requests', async () => {
    expect(await startTracing(parseConfig(testEnv()), 'api')).toBeUndefined();
    const answered = await t.fetch('/api/v1/swap/chains', {
      headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` },
    });
    expect(answered.status).toBe(200);
    expect(activeTracing()).toBeUndefined();
    // Where the OpenTelemetry API keeps a registered tracer provider, context manager or propagator.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')]).toBeUndefined();
  });
});
