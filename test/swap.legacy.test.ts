import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { expectLegacyError, firstRow } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';
import { registerReferralCodes } from './support/seed-transactions';

let t: TestApp;
beforeAll(async () => {
  // Generous: the first quote of a fresh process on a loaded 2-core machine took over a second (503).
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '5000' });
  await registerReferralCodes(t.app, ['legacy-ref']);
});
afterAll(() => t?.stop());
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});

describe('legacy quote, lock and execute', () => {
  it('POST /api/quote answers a bare array of {provider, quoteId, quote, fee, exec}', async () => {
    const res = await t.post('/api/quote', ETH_TO_BTC);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.length).toBeGreaterThan(0);
    for (const element of res.body) {
      expect(Object.keys(element).sort()).toEqual(['exec', 'fee', 'provider', 'quote', 'quoteId']);
      expect(element.quote.dst.currency).toBe('BTC');
    }
    expect(res.headers.get('x-api-version')).toBeNull();
  });

  it('POST /api/quote answers an empty array without routes', async () => {
    for (const sim of Object.values(t.sims)) sim.configure({ faults: { quote: 'noroute' } });
    const res = await t.post('/api/quote', ETH_TO_BTC);
    expect(res).toMatchObject({ status: 200, body: [] });
  });

  it('caps slippage as v1 does: integer basis points 0 through 10000', async () => {
    expect((await t.post('/api/quote', { ...ETH_TO_BTC, slippage: 10_000 })).status).toBe(200);
    for (const slippage of [50_000, 3e9, -1, 1.5]) {
      expectLegacyError(await t.post('/api/quote', { ...ETH_TO_BTC, slippage }), 400, 'INVALID_SLIPPAGE');
      const lock = await t.post('/api/quote/lock', { ...BTC_TO_ETH, provider: 'THORCHAIN', slippage });
      expectLegacyError(lock, 400, 'INVALID_SLIPPAGE');
    }
  });

  it.each([
    [{ ...ETH_TO_BTC, amount: 'x' }, 'INVALID_AMOUNT'],
    [{ ...ETH_TO_BTC, recipient: 'nope' }, 'INVALID_ADDRESS'],
    [
      { ...ETH_TO_BTC, dstChain: 'ethereum', dstAddress: 'native', recipient: ETH_TO_BTC.depositor },
      'UNSUPPORTED_PAIR',
    ],
    [{}, 'VALIDATION_ERROR'],
  ])('POST /api/quote refuses bad input in the legacy shape (%#)', async (body, code) => {
    expectLegacyError(await t.post('/api/quote', body), 400, code);
  });

  it('lock answers {provider, quoteId, quote, exec} and execute answers the legacy shape', async () => {
    const locked = await t.post('/api/quote/lock', {
      ...BTC_TO_ETH,
      provider: 'THORCHAIN',
      referralCode: 'legacy-ref',
    });
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    expect(locked.body).toMatchObject({ provider: 'THORCHAIN', quoteId: expect.stringMatching(/^lk_/) });
    expect(locked.body).toHaveProperty('quote');
    expect(locked.body).toHaveProperty('exec');
    expect(locked.body).not.toHaveProperty('lockId');
    expect(locked.body).not.toHaveProperty('routeId');

    const executed = await t.post('/api/quote/execute', {
      ...BTC_TO_ETH,
      provider: 'THORCHAIN',
      quoteId: locked.body.quoteId,
      referralCode: 'legacy-ref',
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    expect(executed.body).toMatchObject({
      provider: 'THORCHAIN',
      providerResult: { depositAddress: expect.any(String) },
      quote: expect.any(Object),
      transaction: { transaction: { id: expect.stringMatching(/^tx_/), status: 'PENDING' } },
    });
    expect(executed.body).not.toHaveProperty('data');
    const tx = await firstRow(
      t.app.sql`select referral_code from transactions where id = ${executed.body.transaction.transaction.id}`,
    );
    expect(tx.referral_code).toBe('legacy-ref');
  });

  it('lock requires provider, depositor and recipient', async () => {
    expectLegacyError(await t.post('/api/quote/lock', ETH_TO_BTC), 400, 'MISSING_PROVIDER');
    const { depositor: _d, ...noDepositor } = ETH_TO_BTC;
    expectLegacyError(await t.post('/api/quote/lock', { ...noDepositor, provider: 'RELAY' }), 400, 'VALIDATION_ERROR');
  });

  it('execute requires quoteId and refuses expired or used ones', async () => {
    expectLegacyError(await t.post('/api/quote/execute', { ...ETH_TO_BTC }), 400, 'MISSING_LOCK_ID');
    expectLegacyError(await t.post('/api/quote/execute', { quoteId: 'lk_0000000000000000000000' }), 404, 'NOT_FOUND');
    const locked = await t.post('/api/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
    expect((await t.post('/api/quote/execute', { quoteId: locked.body.quoteId })).status).toBe(200);
    expectLegacyError(await t.post('/api/quote/execute', { quoteId: locked.body.quoteId }), 409, 'QUOTE_EXPIRED');
  });

  it('reports provider outages in the legacy shape', async () => {
    for (const sim of Object.values(t.sims)) sim.configure({ faults: { quote: 'error5xx' } });
    expectLegacyError(await t.post('/api/quote', ETH_TO_BTC), 503, 'SERVICE_UNAVAILABLE');
    expectLegacyError(
      await t.post('/api/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' }),
      503,
      'PROVIDER_UNAVAILABLE',
    );
  });
});
