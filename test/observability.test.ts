import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedQueue } from '../server/tracking/queues';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';
import { spawnEntry } from './support/processes';

const TOKEN = 'metrics-token-for-tests-0123456789';

describe('GET /api/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t?.stop());

  it('refuses a missing or wrong token', async () => {
    expect((await t.fetch('/api/metrics')).status).toBe(401);
    expect((await t.fetch('/api/metrics', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
  });

  it('exposes request, provider, queue, lag and transaction metrics', async () => {
    t.sims.RELAY.configure({ faults: { quote: 'error5xx' } });
    await t.post('/api/v1/quote', ETH_TO_BTC);
    await t.json('/api/v1/swap/chains');
    const res = await t.fetch('/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /switchyard_http_requests_total\{route="\/api\/v1\/swap\/chains",method="GET",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /switchyard_http_request_duration_seconds_bucket\{le="[^"]+",route="\/api\/v1\/quote",method="POST"\}/,
    );
    expect(text).toMatch(
      /switchyard_provider_call_duration_seconds_count\{provider="RELAY",stage="quote",outcome="unavailable"\} \d+/,
    );
    expect(text).toMatch(/switchyard_queue_jobs\{queue="tracking",state="waiting"\} \d+/);
    expect(text).toMatch(/switchyard_tracking_lag_seconds \d/);
    expect(text).toMatch(/switchyard_transactions\{state="pending"\} \d+/);
    expect(text).toMatch(/switchyard_provider_circuit_open\{provider="RELAY"\} 0/);
  });

  it('reads queue depths through kept queue handles instead of opening one per scrape', async () => {
    const tracking = sharedQueue(t.app, 'tracking');
    const counted = vi.spyOn(tracking, 'getJobCounts');
    for (let i = 0; i < 2; i++) {
      const res = await t.fetch('/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
    }
    expect(counted).toHaveBeenCalledTimes(2);
    counted.mockRestore();
    expect(sharedQueue(t.app, 'tracking')).toBe(tracking);
    expect(tracking.closing).toBeUndefined();
    expect(await tracking.getJobCounts('waiting')).toEqual({ waiting: expect.any(Number) });
  });

  it('is absent when no token is configured', async () => {
    const plain = await startTestApp();
    try {
      expect((await plain.fetch('/api/metrics')).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});

describe('structured logs', () => {
  it('stamps every line written during a request with its request id', async () => {
    const t = await startTestApp();
    const port = 3700 + Math.floor(Math.random() * 100);
    const child = spawnEntry(
      'server/http/lean-server.ts',
      { ...t.env, LOG_LEVEL: 'info', API_PORT: String(port) },
      'pipe',
    );
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    try {
      for (let i = 0; i < 100; i++) {
        if (
          await fetch(`http://127.0.0.1:${port}/api/health`)
            .then((r) => r.ok)
            .catch(() => false)
        )
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
      t.sims.LIFI.configure({ faults: { quote: 'error5xx' } });
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ETH_TO_BTC),
      });
      const requestId = res.headers.get('x-request-id');
      const parsed = () =>
        output
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      // The access line is written once the response is out; wait for it rather than for a fixed time.
      for (let i = 0; i < 200 && !parsed().some((l) => l.msg === 'request' && l.requestId === requestId); i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const lines = parsed();
      const warn = lines.find((l) => l.msg === 'provider quote failed' && l.provider === 'LIFI');
      expect(warn?.requestId).toBe(requestId);
      const access = lines.find((l) => l.msg === 'request' && l.route === '/api/v1/quote');
      expect(access).toMatchObject({ requestId, status: 200, level: 30 });
    } finally {
      child.kill('SIGKILL');
      await t.stop();
    }
  });
});
