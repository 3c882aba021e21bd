import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../server/config';
import { providerHealth } from '../server/observability/provider-health';
import { createProviderRegistry } from '../server/providers/registry';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    // Generous: a burst of 15 quotes on a loaded 2-core machine ran past 800 ms (503s); no test here waits one out.
    PROVIDER_DEADLINE_MS: '3000',
    PROVIDER_BREAKER_THRESHOLD: '3',
    PROVIDER_BREAKER_HALF_OPEN_MS: '600',
    RELAY_RATE_LIMIT: '5/60',
  });
});
afterAll(() => t?.stop());
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});

const quoteCalls = (key: keyof TestApp['sims']) => t.sims[key].log.filter((e) => e.kind === 'quote').length;
const providersIn = (res: { body: any }) => new Set(res.body.data.map((r: any) => r.provider));

describe('circuit breaker', () => {
  it('opens after repeated failures, skips the provider while open, and closes after recovery', async () => {
    t.sims.THORCHAIN.configure({ faults: { quote: 'error5xx' } });
    for (let i = 0; i < 3; i++) await t.post('/api/v1/quote', ETH_TO_BTC);
    const callsWhenOpened = quoteCalls('THORCHAIN');
    expect((await providerHealth(t.app)).find((p) => p.provider === 'THORCHAIN')?.breaker).toBe('open');

    const whileOpen = await t.post('/api/v1/quote', ETH_TO_BTC);
    expect(whileOpen.status).toBe(200);
    expect(providersIn(whileOpen).has('THORCHAIN')).toBe(false);
    expect(providersIn(whileOpen).size).toBeGreaterThan(0);
    expect(quoteCalls('THORCHAIN')).toBe(callsWhenOpened);

    t.sims.THORCHAIN.configure({ faults: { quote: 'none' } });
    await new Promise((r) => setTimeout(r, 700));
    const recovered = await t.post('/api/v1/quote', ETH_TO_BTC);
    expect(providersIn(recovered).has('THORCHAIN')).toBe(true);
    expect((await providerHealth(t.app)).find((p) => p.provider === 'THORCHAIN')?.breaker).toBe('closed');
  });

  it('does not count "no route" answers as failures', async () => {
    t.sims.CHAINFLIP.configure({ faults: { quote: 'noroute' } });
    for (let i = 0; i < 5; i++) await t.post('/api/v1/quote', ETH_TO_BTC);
    expect((await providerHealth(t.app)).find((p) => p.provider === 'CHAINFLIP')?.breaker).toBe('closed');
  });
});

describe('client-side rate limit', () => {
  it('lets no more than the configured budget reach the provider under a burst', async () => {
    const spent = await t.app.redis.keys(`${t.app.config.redisPrefix}:upstream*`);
    if (spent.length) await t.app.redis.del(...spent);
    const results = await Promise.all(Array.from({ length: 15 }, () => t.post('/api/v1/quote', ETH_TO_BTC)));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 15 }, () => 200));
    expect(quoteCalls('RELAY')).toBeLessThanOrEqual(5);
    expect(quoteCalls('RELAY')).toBeGreaterThan(0);
    expect(quoteCalls('LIFI')).toBe(15);
  });
});

describe('live mode allow-list', () => {
  const live = (extra: Record<string, string>) =>
    parseConfig({
      NODE_ENV: 'test',
      PROVIDERS_MODE: 'live',
      THORCHAIN_ENABLED: 'false',
      CHAINFLIP_ENABLED: 'false',
      LIFI_ENABLED: 'false',
      ...extra,
    });

  it('refuses a provider URL whose host is not allowed', () => {
    expect(() => createProviderRegistry(live({ RELAY_URL: 'https://relay.attacker.example' }))).toThrow(/allow-list/);
  });

  it('accepts the documented hosts and operator-added ones', () => {
    expect(
      createProviderRegistry(live({}))
        .list()
        .map((a) => a.key),
    ).toEqual(['RELAY']);
    expect(() =>
      createProviderRegistry(
        live({ RELAY_URL: 'https://relay.internal.example', UPSTREAM_ALLOWED_HOSTS: 'relay.internal.example' }),
      ),
    ).not.toThrow();
  });
});
