import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleApiRequest } from '../server/http/routes';
import { CLIENT_IP_HEADER, signedClientAddress } from '../server/ratelimit/client';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { expectV1Error } from './support/assertions';
import { ETH_TO_BTC } from './support/fixtures';
import { countRedisWrites } from './support/round-trips';

type Sims = TestApp['sims'];
const quoteCalls = (sims: Sims) =>
  Object.values(sims).reduce((n, sim) => n + sim.log.filter((e) => e.kind === 'quote').length, 0);

/** A quote as one client sends it, through the same dispatcher the route handlers use. */
async function quoteFrom(t: TestApp, address: string, body: Record<string, unknown>) {
  const res = await handleApiRequest(
    t.app,
    new Request('http://127.0.0.1:3000/api/v1/quote', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CLIENT_IP_HEADER]: signedClientAddress(address) },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
const providersIn = (res: { body: any }) => new Set<string>(res.body.data.map((r: any) => r.provider));

describe('quote cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ QUOTE_CACHE_MS: '60000' });
  });
  afterAll(() => t?.stop());
  beforeEach(() => {
    for (const sim of Object.values(t.sims)) sim.reset();
  });

  it('answers an identical quote from the cache, in every web process, without asking the providers again', async () => {
    const body = { ...ETH_TO_BTC, amount: '1.25' };
    const first = await t.post('/api/v1/quote', body);
    expect(first.status).toBe(200);
    const asked = quoteCalls(t.sims);
    expect(asked).toBeGreaterThan(0);
    const second = await t.post('/api/v1/quote', { ...body, exclude: [] });
    expect(second.body).toEqual(first.body);
    const sibling = await startSibling(t, { QUOTE_CACHE_MS: '60000' });
    try {
      const fromSibling = await fetch(`${sibling.baseUrl}/api/v1/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(await fromSibling.json()).toEqual(first.body);
    } finally {
      await sibling.stop();
    }
    expect(quoteCalls(t.sims)).toBe(asked);
    await t.post('/api/v1/quote', { ...body, amount: '1.26' });
    expect(quoteCalls(t.sims)).toBeGreaterThan(asked);
  });

  it('never keeps a fan-out where a provider failed', async () => {
    t.sims.RELAY.configure({ faults: { quote: 'error5xx' } });
    const body = { ...ETH_TO_BTC, amount: '1.75' };
    const degraded = await t.post('/api/v1/quote', body);
    expect(degraded.status).toBe(200);
    expect(providersIn(degraded).has('RELAY')).toBe(false);
    t.sims.RELAY.configure({ faults: { quote: 'none' } });
    const recovered = await t.post('/api/v1/quote', body);
    expect(providersIn(recovered).has('RELAY')).toBe(true);
  });
});

describe("one client's share of a provider's upstream budget", () => {
  let t: TestApp;
  beforeAll(async () => {
    // Relay: 8 calls a minute; a client may take 25% (2), quotes may not take the last 25% (2).
    t = await startTestApp({
      RELAY_RATE_LIMIT: '8/60',
      QUOTE_CLIENT_SHARE_PERCENT: '25',
      QUOTE_BUDGET_RESERVE_PERCENT: '25',
    });
  });
  afterAll(() => t?.stop());

  const onlyRelay = (amount: string) => ({ ...ETH_TO_BTC, amount, exclude: ['THORCHAIN', 'CHAINFLIP', 'LIFI'] });

  it('a client past its share gets the other providers, then 429 once it is past every share', async () => {
    for (const amount of ['2.01', '2.02']) {
      expect(providersIn(await quoteFrom(t, '192.0.2.1', { ...ETH_TO_BTC, amount })).has('RELAY')).toBe(true);
    }
    const fewer = await quoteFrom(t, '192.0.2.1', { ...ETH_TO_BTC, amount: '2.03' });
    expect(fewer.status).toBe(200);
    expect(providersIn(fewer).has('RELAY')).toBe(false);
    expect(providersIn(fewer).size).toBeGreaterThan(0);

    const refused = await quoteFrom(t, '192.0.2.1', onlyRelay('2.04'));
    expectV1Error(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const other = await quoteFrom(t, '198.51.100.7', onlyRelay('2.05'));
    expect(other.status).toBe(200);
    expect(providersIn(other)).toEqual(new Set(['RELAY']));
  });
});

describe('what a fan-out costs Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.stop());

  it("counts every provider's client share in one write and every upstream budget in one more", async () => {
    const redis = t.app.providers.redis;
    if (!redis) throw new Error('the registry counts budgets in Redis');
    await quoteFrom(t, '192.0.2.50', { ...ETH_TO_BTC, amount: '3.01' }); // connected, scripts loaded
    const counter = countRedisWrites(redis);
    const res = await quoteFrom(t, '192.0.2.50', { ...ETH_TO_BTC, amount: '3.02' });
    expect(providersIn(res)).toEqual(new Set(['THORCHAIN', 'CHAINFLIP', 'RELAY', 'LIFI']));
    // Four shares and four budgets counted: as many points taken as there were providers, each counted once.
    const prefix = t.app.config.redisPrefix;
    for (const provider of ['THORCHAIN', 'CHAINFLIP', 'RELAY', 'LIFI']) {
      expect(Number(await t.app.redis.get(`${prefix}:upstream-share:${provider}:192.0.2.50`))).toBe(2);
    }
    expect(counter.writes).toBe(2);
  });
});

describe("the reserved part of a provider's upstream budget", () => {
  let t: TestApp;
  beforeAll(async () => {
    // Relay: 8 calls a minute, the last 2 kept for locks, executes and status polls.
    t = await startTestApp({ RELAY_RATE_LIMIT: '8/60', QUOTE_BUDGET_RESERVE_PERCENT: '25' });
  });
  afterAll(() => t?.stop());

  it('quotes cannot take it; a lock and its execute still can', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const body = { ...ETH_TO_BTC, amount: `3.0${i}`, exclude: ['THORCHAIN', 'CHAINFLIP', 'LIFI'] };
      const res = await quoteFrom(t, `203.0.113.${i}`, body);
      statuses.push(res.status);
      if (res.status === 200) expect(providersIn(res)).toEqual(new Set(['RELAY']));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 503]);
    const locked = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, amount: '3.1', provider: 'RELAY' });
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    const executed = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
  });
});
