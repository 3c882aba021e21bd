import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResilientAdapter } from '../server/providers/resilience';
import { quoteProvider } from '../server/routing/quote';
import { validateSwapBody } from '../server/routing/validate';
import { quoteBodyV1 } from '../server/schemas/swap';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '1000' });
});
afterAll(() => t?.stop());

describe('the quote deadline', () => {
  it('counts from the request’s arrival: time spent before the fan-out is taken off a provider’s share', async () => {
    t.sims.RELAY.configure({ faults: { quote: 'hang' } });
    const { pair } = await validateSwapBody(t.app, quoteBodyV1, ETH_TO_BTC);
    const relay = t.app.providers.get('RELAY') as ResilientAdapter;
    const arrivedLongAgo = performance.now() - 1000;
    const outcome = await quoteProvider(t.app, relay, pair, 'preview', arrivedLongAgo);
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.kind).toBe('UNAVAILABLE');
    expect(outcome.error?.message).toMatch(/no answer within 0 ms/);
  });
});
