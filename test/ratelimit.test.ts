import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../server/context';
import { clientHash } from '../server/ratelimit/client';
import { flushRateLimitHits } from '../server/ratelimit/hit-counter';
import { rollupRateLimitHits } from '../server/ratelimit/hits';
import { createRateLimiter, MAX_LEASE, type RateDecision, REFILL_AT } from '../server/ratelimit/limiter';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { expectLegacyError, expectV1Error } from './support/assertions';
import { countRedisWrites } from './support/round-trips';

const LIMITS = {
  RATE_LIMIT_CATALOG: '5',
  RATE_LIMIT_QUOTE: '3',
  RATE_LIMIT_EXECUTE: '3',
  RATE_LIMIT_TRANSACTIONS: '4',
  RATE_LIMIT_WINDOW_SECONDS: '60',
};

describe('rate limits shared through Redis', () => {
  let t: TestApp;
  let sibling: Awaited<ReturnType<typeof startSibling>>;
  beforeAll(async () => {
    t = await startTestApp(LIMITS);
    sibling = await startSibling(t);
  });
  afterAll(async () => {
    await sibling?.stop();
    await t?.stop();
  });

  it('allows exactly L requests in a window across two web processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const base = i % 2 === 0 ? t.baseUrl : sibling.baseUrl;
      statuses.push((await fetch(`${base}/api/v1/swap/chains?perPage=1`)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429, 429]);
  });

  it('puts the limit headers on every v1 response, and Retry-After with RATE_LIMITED on 429', async () => {
    const first = await t.json('/api/v1/transaction/history');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('4');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('3');
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(first.headers.get('ratelimit-policy')).toBe('"transactions";q=4;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"transactions";r=3;t=\d+$/);
    const bad = await t.json('/api/v1/transaction/history?perPage=999');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('2');
    await t.json('/api/v1/transaction/history');
    await t.json('/api/v1/transaction/history');
    const limited = await t.json('/api/v1/transaction/history');
    expectV1Error(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('limits each route class separately and the legacy interface too', async () => {
    const quote = await t.post('/api/v1/quote', {});
    expect(quote.headers.get('x-ratelimit-limit')).toBe('3');
    for (let i = 0; i < 2; i++) await t.post('/api/quote', {});
    expectLegacyError(await t.post('/api/quote', {}), 429, 'RATE_LIMITED');
  });

  it('records every 429 per minute, route class and hashed client, rolled up into Postgres', async () => {
    // Each process writes its counted 429s within a second; the sibling's must be in Redis before the rollup.
    await flushRateLimitHits(sibling.app.redis);
    const written = await rollupRateLimitHits(t.app);
    expect(written).toBeGreaterThan(0);
    const rows = await t.app
      .sql`select route_class, client_hash, sum(hits)::int as hits from rate_limit_hits group by 1, 2 order by 1`;
    const expectedHash = clientHash('127.0.0.1', t.app.config.rateLimits.hashKey);
    expect(rows).toEqual(
      expect.arrayContaining([
        { route_class: 'catalog', client_hash: expectedHash, hits: 4 },
        { route_class: 'transactions', client_hash: expectedHash, hits: 1 },
        { route_class: 'quote', client_hash: expectedHash, hits: 1 },
      ]),
    );
    expect(JSON.stringify(rows)).not.toContain('127.0.0.1');
    expect(await rollupRateLimitHits(t.app)).toBe(0);
  });
});

describe('client address', () => {
  it('ignores X-Forwarded-For and a forged client-ip header without TRUST_PROXY', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await t.fetch('/api/v1/swap/sources', {
          headers: { 'x-forwarded-for': `10.0.0.${i}`, 'x-switchyard-client-ip': `203.0.113.${i}` },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await t.stop();
    }
  });

  it('uses the proxy-appended X-Forwarded-For entry with TRUST_PROXY', async () => {
    const t = await startTestApp({ ...LIMITS, TRUST_PROXY: 'true' });
    try {
      for (let i = 0; i < 5; i++)
        await t.fetch('/api/v1/swap/sources', { headers: { 'x-forwarded-for': 'spoofed, 198.51.100.1' } });
      const same = await t.fetch('/api/v1/swap/sources', {
        headers: { 'x-forwarded-for': 'other-spoof, 198.51.100.1' },
      });
      expect(same.status).toBe(429);
      const other = await t.fetch('/api/v1/swap/sources', { headers: { 'x-forwarded-for': '198.51.100.2' } });
      expect(other.status).toBe(200);
    } finally {
      await t.stop();
    }
  });
});

describe('Redis down', () => {
  it('falls back to a per-process in-memory limiter instead of failing requests', async () => {
    const t = await startTestApp({ ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await t.fetch('/api/v1/swap/chains?perPage=1')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await t.stop();
    }
  });
});

describe('reads under the limit', () => {
  it('counts a read that fails, and answers 429 rather than the read’s own error once over the limit', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const path = `/api/v1/transaction/status?hash=0x${'ab'.repeat(32)}`;
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const res = await t.fetch(path);
        answers.push({ status: res.status, remaining: res.headers.get('x-ratelimit-remaining') });
      }
      expect(answers).toEqual([
        { status: 404, remaining: '3' },
        { status: 404, remaining: '2' },
        { status: 404, remaining: '1' },
        { status: 404, remaining: '0' },
        { status: 429, remaining: '0' },
        { status: 429, remaining: '0' },
      ]);
    } finally {
      await t.stop();
    }
  });
});

describe('the limiter’s cost per request', () => {
  it('is at most one Redis round trip, and none once a client is over the limit', async () => {
    const t = await startTestApp(LIMITS);
    try {
      // Every write to the web connection's socket is one round trip: commands are awaited one by one.
      const socket = (t.app.redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
      const write = socket.write.bind(socket);
      let writes = 0;
      socket.write = (...args: unknown[]) => {
        writes++;
        return write(...args);
      };
      const roundTrips = async () => {
        writes = 0;
        const res = await t.fetch('/api/v1/swap/sources');
        return { status: res.status, roundTrips: writes };
      };
      // The first request of a process also loads the limiter's script into Redis.
      await t.fetch('/api/v1/swap/sources');
      const answers = [];
      for (let i = 0; i < 7; i++) answers.push(await roundTrips());
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429, 429]);
      expect(answers.slice(0, 5).map((a) => a.roundTrips)).toEqual([1, 1, 1, 1, 1]);
      expect(answers.slice(5).map((a) => a.roundTrips)).toEqual([0, 0]);
    } finally {
      await t.stop();
    }
  });

  it('shares one round trip among a client’s concurrent requests, and still allows exactly L across processes', async () => {
    const t = await startTestApp(LIMITS);
    const sibling = await startSibling(t);
    try {
      const processes = [t.app, sibling.app].map((app) => {
        const limiter = createRateLimiter(app.config, app.redis);
        return { limiter, counter: countRedisWrites(app.redis) };
      });
      // Loads the script into Redis, so every count below is one EVALSHA.
      await Promise.all(processes.map((p) => p.limiter.consume('catalog', 'warm-up')));
      for (const p of processes) p.counter.writes = 0;

      const decisions = await Promise.all(
        processes.flatMap((p) => Array.from({ length: 15 }, () => p.limiter.consume('catalog', 'busy-client'))),
      );
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).toHaveLength(5);
      expect(allowed.map((d) => d.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
      expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.resetSeconds > 0)).toBe(true);
      // Per process: the 15 requests arrived in one turn of the event loop and are counted in one round trip.
      expect(processes.map((p) => p.counter.writes)).toEqual([1, 1]);
      // Over the limit now: refused from memory.
      expect((await processes[0]?.limiter.consume('catalog', 'busy-client'))?.allowed).toBe(false);
      expect(processes[0]?.counter.writes).toBe(1);
    } finally {
      await sibling.stop();
      await t.stop();
    }
  });

  it('counts every request of a fast client: remaining counts down one by one, leased positions counted in Redis first', async () => {
    const t = await startTestApp({ ...LIMITS, RATE_LIMIT_CATALOG: '1000' });
    try {
      const remaining: number[] = [];
      for (let i = 0; i < 200; i++) {
        const res = await t.fetch('/api/v1/swap/sources');
        expect(res.status).toBe(200);
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      }
      expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => 999 - i));
      // At most what is left of one lease when the next is asked for, and that whole next one, are left unused.
      const [key] = await t.app.redis.keys(`${t.app.config.redisPrefix}:rl:catalog:*`);
      const counted = Number(await t.app.redis.get(key ?? 'missing'));
      expect(counted).toBeGreaterThanOrEqual(200);
      expect(counted).toBeLessThanOrEqual(200 + MAX_LEASE * (1 + REFILL_AT));
    } finally {
      await t.stop();
    }
  });

  it('leases positions to a client that asks fast: few round trips', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const clock = manualClock();
      const limiter = createRateLimiter(withCatalogLimit(t.app, 1000), t.app.redis, clock.now);
      const counter = countRedisWrites(t.app.redis, 'fast-client');
      const remaining: number[] = [];
      for (let i = 0; i < 200; i++) {
        clock.advance(1);
        remaining.push((await limiter.consume('catalog', 'fast-client')).remaining);
      }
      expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => 999 - i));
      // Without leases this would be 200 (plus the script load); a lease covers what the client asks in 100 ms.
      expect(counter.writes).toBeLessThanOrEqual(12);
    } finally {
      await t.stop();
    }
  });

  it('renews a steady client’s lease before it runs out: its requests do not wait for Redis', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const clock = manualClock();
      const limiter = createRateLimiter(withCatalogLimit(t.app, 100_000), t.app.redis, clock.now);
      let waited = 0;
      const remaining: number[] = [];
      for (let i = 0; i < 1000; i++) {
        // A client asking steadily, once a millisecond.
        clock.advance(1);
        let decision = limiter.consume('catalog', 'steady-client');
        if (decision instanceof Promise) {
          waited++;
          decision = await decision;
        }
        remaining.push(decision.remaining);
        // Between two requests the limiter's own call, if it sent one, comes back: the same connection answers in order.
        await new Promise((resolve) => setImmediate(resolve));
        await t.app.redis.ping();
      }
      // The first two requests wait (the second one is what a lease is sized by); a lease (~100 positions
      // at this pace) would otherwise run out ~10 times over 1000 requests, each time making the next one wait.
      expect(waited).toBeLessThanOrEqual(2);
      expect(remaining).toEqual(Array.from({ length: 1000 }, (_, i) => 99_999 - i));
    } finally {
      await t.stop();
    }
  });

  it('gives no lease to a client that asks slowly: each of its requests is counted in Redis', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const clock = manualClock();
      const limiter = createRateLimiter(withCatalogLimit(t.app, 1000), t.app.redis, clock.now);
      await limiter.consume('catalog', 'warm-up');
      const counter = countRedisWrites(t.app.redis, 'slow-client');
      for (let i = 0; i < 4; i++) {
        await limiter.consume('catalog', 'slow-client');
        clock.advance(150);
      }
      expect(counter.writes).toBe(4);
      const [key] = await t.app.redis.keys(`${t.app.config.redisPrefix}:rl:catalog:slow-client`);
      expect(await t.app.redis.get(key ?? 'missing')).toBe('4');
    } finally {
      await t.stop();
    }
  });

  it('with leases in two processes, allows exactly L in the window and never more', async () => {
    const t = await startTestApp(LIMITS);
    const sibling = await startSibling(t);
    try {
      const limit = 300;
      const limiters = [t.app, sibling.app].map((app) => createRateLimiter(withCatalogLimit(app, limit), app.redis));
      const decisions: RateDecision[] = [];
      // Bursts of uneven size on each process, until both refuse the client.
      for (let round = 0; round < 100; round++) {
        const burst = await Promise.all(
          limiters.flatMap((limiter, i) =>
            Array.from({ length: 3 + ((round + i) % 5) }, () => limiter.consume('catalog', 'leased-client')),
          ),
        );
        decisions.push(...burst);
        if (burst.every((d) => !d.allowed)) break;
      }
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).toHaveLength(limit);
      // Every position of the window went to exactly one request.
      expect(new Set(allowed.map((d) => d.remaining)).size).toBe(limit);
      expect(decisions.at(-1)?.allowed).toBe(false);
    } finally {
      await sibling.stop();
      await t.stop();
    }
  });

  it('drops a lease when its window ends', async () => {
    const t = await startTestApp({ ...LIMITS, RATE_LIMIT_WINDOW_SECONDS: '1' });
    try {
      const clock = manualClock();
      const limiter = createRateLimiter(withCatalogLimit(t.app, 1000), t.app.redis, clock.now);
      for (let i = 0; i < 5; i++) {
        clock.advance(1);
        await limiter.consume('catalog', 'windowed-client');
      }
      const counter = countRedisWrites(t.app.redis, 'windowed-client');
      const leased = await limiter.consume('catalog', 'windowed-client');
      expect(leased.remaining).toBe(994);
      expect(counter.writes).toBe(0);
      // The window ends: here by the clock, in Redis by its key expiring.
      clock.advance(1100);
      await t.app.redis.del(`${t.app.config.redisPrefix}:rl:catalog:windowed-client`);
      const writesBefore = counter.writes;
      const fresh = await limiter.consume('catalog', 'windowed-client');
      expect(fresh.remaining).toBe(999);
      expect(counter.writes - writesBefore).toBe(1);
    } finally {
      await t.stop();
    }
  });
});

/** A clock that moves only when the test moves it, so leases are sized by the pace the test sets, not the machine's. */
function manualClock(start = Date.now()) {
  let at = start;
  return {
    now: () => at,
    advance(ms: number) {
      at += ms;
    },
  };
}

function withCatalogLimit(app: AppContext, catalog: number): AppContext['config'] {
  const { rateLimits } = app.config;
  return { ...app.config, rateLimits: { ...rateLimits, perClient: { ...rateLimits.perClient, catalog } } };
}
