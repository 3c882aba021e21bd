import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import { parseConfig } from '../../config';
import { isProviderError } from '../errors';
import { createProviderRegistry } from '../registry';
import type { ResilientAdapter } from '../resilience';
import type { RunningSimulator } from '../simulator-kit';
import type { RouteAsset } from '../types';
import { startLifiSimulator } from './simulator';

const DEPOSITOR = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0';
const eth = routeAsset('ethereum', 'ETH');
const ethUsdc = routeAsset('ethereum', 'USDC');
const arbUsdc = routeAsset('arbitrum', 'USDC');

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startLifiSimulator({ port: 0, defaults: { autoDepositMs: 0 } });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

/** LI.FI as live mode runs it without a key, its budgets counted in this process' memory. */
function liveLifi(): { lifi: ResilientAdapter; reservePercent: number } {
  const config = parseConfig({
    NODE_ENV: 'test',
    PROVIDERS_MODE: 'live',
    THORCHAIN_ENABLED: 'false',
    CHAINFLIP_ENABLED: 'false',
    RELAY_ENABLED: 'false',
    LIFI_URL: sim.url,
    UPSTREAM_ALLOWED_HOSTS: '127.0.0.1',
  });
  const lifi = createProviderRegistry(config).get('LIFI');
  if (!lifi) throw new Error('LI.FI is not enabled');
  return { lifi, reservePercent: config.quoteBudget.reservePercent };
}

const quoteOf = (src: RouteAsset, dst: RouteAsset) => ({
  src,
  dst,
  amountBase: 10n ** 18n,
  slippageBps: 50,
  depositor: DEPOSITOR,
  recipient: DEPOSITOR,
});

async function executeFirstRoute(lifi: ResilientAdapter, input: ReturnType<typeof quoteOf>) {
  const [route] = await lifi.quote(input, testSignal());
  if (!route) throw new Error('no route');
  const executed = await lifi.execute(
    { ...input, routeId: route.routeId, providerQuote: route.providerQuote, transactionId: 'tx_budget' },
    testSignal(),
  );
  return {
    ...input,
    srcAmountBase: input.amountBase,
    trackingContext: executed.trackingContext,
    hash: '',
    inboundHash: '',
    createdAt: new Date(),
    depositor: DEPOSITOR,
    recipient: DEPOSITOR,
  };
}

const perMinuteRequests = () =>
  sim.log.filter((entry) => entry.kind !== 'other' && !/^\/v1\/(quote|advanced\/routes)/.test(entry.path)).length;

describe("LI.FI's budgets follow its published limits", () => {
  it('counts status reads per request in the per-minute window; polling never starves quotes and executes', async () => {
    const { lifi, reservePercent } = liveLifi();
    const tracked = await executeFirstRoute(lifi, quoteOf(eth, arbUsdc));
    let refusal: unknown;
    // Polling goes on after the first refusal, as the worker's would: more refusals than the breaker's threshold.
    for (let poll = 0; poll < 110; poll++) {
      await lifi.status(tracked, testSignal()).catch((error: unknown) => {
        refusal ??= error;
      });
    }
    expect(isProviderError(refusal) && refusal.kind).toBe('RATE_LIMITED');
    // Every HTTP request of the per-minute window was charged, up to the part kept for swaps in flight.
    expect(perMinuteRequests()).toBe(100 - Math.ceil(reservePercent));
    // Our own budget's refusals say nothing of LI.FI's health: no breaker opens on them.
    expect(lifi.breakerState()).toBe('closed');
    // The 75-per-2-hours quote window was not touched by the polling, and executes keep their reserve.
    expect(await executeFirstRoute(lifi, quoteOf(eth, arbUsdc))).toHaveProperty('trackingContext');
  });

  it("quote previews stop at the reserve without opening the breaker, so a swap's own quote still goes through", async () => {
    const { lifi } = liveLifi();
    // Past the reserve, every preview is refused: more of them in a row than the breaker's threshold.
    const refusals: unknown[] = [];
    for (let preview = 0; preview < 90; preview++) {
      await lifi.previewQuote(quoteOf(eth, arbUsdc), testSignal()).catch((error: unknown) => refusals.push(error));
    }
    expect(refusals.length).toBeGreaterThan(10);
    expect(refusals.every((error) => isProviderError(error) && error.kind === 'RATE_LIMITED')).toBe(true);
    expect(lifi.breakerState()).toBe('closed');
    expect(await lifi.quote(quoteOf(eth, arbUsdc), testSignal())).not.toHaveLength(0);
  });

  it('sends no bridge parameter for a same-chain swap, and the bridge for a cross-chain one', async () => {
    const { lifi } = liveLifi();
    await lifi.status(await executeFirstRoute(lifi, quoteOf(eth, ethUsdc)), testSignal());
    await lifi.status(await executeFirstRoute(lifi, quoteOf(eth, arbUsdc)), testSignal());
    const statusQueries = sim.log
      .filter((entry) => entry.path.startsWith('/v1/status'))
      .map((entry) => new URL(entry.path, sim.url).searchParams);
    expect(statusQueries.map((query) => query.has('bridge'))).toEqual([false, true]);
  });
});
