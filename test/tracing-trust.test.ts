import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../server/config';
import { startTestApp, type TestApp, testEnv } from './support/app';
import { callerFor, signedInUser } from './support/dashboard';
import { ETH_TO_BTC } from './support/fixtures';
import { waitForStatus } from './support/flows';
import { type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver';
import { freePort, httpOk, spawnEntry, stopChild, waitUntil } from './support/processes';
import { startReceiver } from './support/webhook-receivers';

/**
 * Outsiders cannot steer tracing: a caller's `traceparent` neither becomes our parent nor forces a
 * trace to be kept unless the caller is a trusted peer (OTEL_TRUSTED_PARENTS), its `baggage` goes
 * nowhere, no trace context is sent to providers or webhook receivers, `client.address` is the rate
 * limiter's, and a webhook span names its receiver's origin only. Real lean API and worker processes
 * export to a collector on loopback.
 */
const SPAN_KIND = { SERVER: 2, CLIENT: 3 } as const;
const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'];
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const outsideContext = (traceId = hex(16), spanId = hex(8)) => ({
  traceparent: `00-${traceId}-${spanId}-01`,
  tracestate: 'outsider=steer',
  baggage: `stuffing=${'x'.repeat(4000)}`,
});

let t: TestApp;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let hooks: Awaited<ReturnType<typeof startReceiver>>;
const children: ChildProcess[] = [];

async function startApi(env: Record<string, string>) {
  const port = await freePort();
  const child = spawnEntry('server/http/lean-server.ts', { ...t.env, ...env, API_PORT: String(port) });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  expect(await waitUntil(httpOk(`${url}/api/health`), { timeoutMs: 80_000 })).toBe(true);
  return url;
}

/** Kept at every ratio, with TRUST_PROXY off and nobody trusted. */
let openUrl: string;
/** Nothing new kept; behind a proxy (TRUST_PROXY), trusting 10.9.9.0/24. */
let strictUrl: string;
const TRUSTED = '10.9.9.9';
const OUTSIDER = '203.0.113.7';

const outsider = { traceId: hex(16), spanId: hex(8) };
const trusted = { traceId: hex(16), spanId: hex(8) };
const ignoredTraceIds: string[] = [];
const SECRET_PATH = `/services/T0/B0/${hex(12)}`;
let transactionId: string;
let spans: ReceivedSpan[];

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  hooks = await startReceiver();
  t = await startTestApp({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    TRACKING_TIME_SCALE: '0.01',
    TRACKING_MIN_INTERVAL_MS: '100',
  });
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, SHUTDOWN_TIMEOUT_MS: '10000' };
  [openUrl, strictUrl] = await Promise.all([
    startApi({ ...traced, OTEL_TRACES_SAMPLER_ARG: '1' }),
    startApi({
      ...traced,
      OTEL_TRACES_SAMPLER_ARG: '0',
      TRUST_PROXY: 'true',
      OTEL_TRUSTED_PARENTS: '10.9.9.0/24',
    }),
  ]);
  children.push(spawnEntry('workers/main.ts', { ...t.env, ...traced, WORKER_HEALTH_PORT: '0' }));

  const admin = await signedInUser(t.app, 'admin');
  await (await callerFor(t.app, admin.headers)).webhooks.create({
    url: `${hooks.url.replace(/\/hooks$/, '')}${SECRET_PATH}`,
    scope: 'all',
  });

  for (let i = 0; i < 10; i++) {
    const context = outsideContext();
    ignoredTraceIds.push(context.traceparent.split('-')[1] as string);
    const res = await fetch(`${strictUrl}/api/v1/swap/chains`, {
      headers: { ...context, 'x-forwarded-for': OUTSIDER },
    });
    expect(res.status).toBe(200);
  }
  const fromTrusted = await fetch(`${strictUrl}/api/v1/swap/chains`, {
    headers: { ...outsideContext(trusted.traceId, trusted.spanId), 'x-forwarded-for': TRUSTED },
  });
  expect(fromTrusted.status).toBe(200);

  t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 2 });
  t.sims.RELAY.log.length = 0;
  const locked = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
  expect(locked.status, JSON.stringify(locked.body)).toBe(200);
  const executed = await fetch(`${openUrl}/api/v1/quote/execute`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': '198.51.100.9',
      ...outsideContext(outsider.traceId, outsider.spanId),
    },
    body: JSON.stringify({ lockId: locked.body.data.lockId }),
  });
  const body = await executed.json();
  expect(executed.status, JSON.stringify(body)).toBe(200);
  transactionId = body.data.transaction.id;
  await waitForStatus(t, transactionId, (tx) => tx.status === 'SUCCESS', { timeoutMs: 30_000 });
  expect(await waitUntil(() => hooks.events().some((e) => e.type === 'transaction.final'), { timeoutMs: 30_000 })).toBe(
    true,
  );
  // Stopping flushes each process's spans still buffered.
  await Promise.all(children.map((child) => stopChild(child)));
  spans = otlp.spans;
}, 240_000);

afterAll(async () => {
  await Promise.all(children.map((child) => stopChild(child)));
  await hooks?.stop();
  await t?.stop();
  await otlp?.close();
}, 60_000);

const executeSpan = () =>
  spans.find(
    (s) =>
      s.kind === SPAN_KIND.SERVER &&
      s.service === 'switchyard-api' &&
      s.attributes['switchyard.transaction_id'] === transactionId,
  );

describe('an incoming trace context', () => {
  it('from an outsider forces nothing: at a 0 ratio none of their sampled requests is exported', () => {
    expect(spans.filter((s) => ignoredTraceIds.includes(s.traceId))).toEqual([]);
  });

  it('from an outsider is a link at most: the request starts a trace of ours', () => {
    const execute = executeSpan();
    expect(execute, JSON.stringify(spans.map((s) => [s.service, s.name]))).toBeDefined();
    expect(execute?.traceId).not.toBe(outsider.traceId);
    expect(execute?.parentSpanId).toBeUndefined();
    expect(execute?.links).toEqual([{ traceId: outsider.traceId, spanId: outsider.spanId }]);
    expect(spans.filter((s) => s.traceId === outsider.traceId)).toEqual([]);
  });

  it('from a trusted peer (OTEL_TRUSTED_PARENTS, by the rate limiter’s client address) is continued and kept', () => {
    const continued = spans.filter((s) => s.traceId === trusted.traceId);
    expect(continued.find((s) => s.kind === SPAN_KIND.SERVER)?.parentSpanId).toBe(trusted.spanId);
    expect(continued.find((s) => s.kind === SPAN_KIND.SERVER)?.attributes['client.address']).toBe(TRUSTED);
  });

  it('records client.address by the rate limiter’s rule: the socket’s, not X-Forwarded-For, with TRUST_PROXY off', () => {
    expect(executeSpan()?.attributes['client.address']).toBe('127.0.0.1');
  });
});

describe('OTEL_TRUSTED_PARENTS', () => {
  it('takes addresses and CIDR ranges, and names itself when an entry is neither', () => {
    const parse = (value: string) => parseConfig(testEnv({ OTEL_TRUSTED_PARENTS: value })).tracing.trustedParents;
    expect(parse('')).toEqual([]);
    expect(parse(' 10.0.0.0/8, 192.0.2.10,fd00::/8 ')).toEqual(['10.0.0.0/8', '192.0.2.10', 'fd00::/8']);
    expect(() => parse('10.0.0.0/8,lb.internal')).toThrow(/OTEL_TRUSTED_PARENTS.*must be an address or a CIDR range/);
  });
});

describe('outgoing requests', () => {
  it('send providers no trace context', () => {
    const calls = t.sims.RELAY.log;
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.filter((c) => TRACE_HEADERS.some((h) => h in c.headers)).map((c) => c.path)).toEqual([]);
  });

  it('send webhook receivers no trace context', () => {
    expect(hooks.requests.length).toBeGreaterThan(0);
    expect(hooks.requests.filter((r) => TRACE_HEADERS.some((h) => h in r.headers))).toEqual([]);
  });

  it('record a webhook receiver’s scheme, host and port, never its path', () => {
    const port = Number(new URL(hooks.url).port);
    const deliveries = spans.filter((s) => s.kind === SPAN_KIND.CLIENT && s.attributes['server.port'] === port);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.map((s) => s.attributes['url.full'])).toEqual(deliveries.map(() => `http://127.0.0.1:${port}`));
    expect(JSON.stringify(spans)).not.toContain(SECRET_PATH);
  });
});
