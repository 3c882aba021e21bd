import { parseUnits } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoLimit } from '../server/providers/thorchain/memo';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Error, firstRow } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC, USDC_ETH_TO_ARB } from './support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '1500', EXECUTE_DEADLINE_MS: '3000' });
});
afterAll(() => t?.stop());
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});

async function lock(body: Record<string, unknown>, provider: string) {
  const res = await t.post('/api/v1/quote/lock', { ...body, provider });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const execute = (lockId: string) => t.post('/api/v1/quote/execute', { lockId });
const lockState = async (lockId: string) =>
  (await firstRow(t.app.sql`select state from locks where id = ${lockId}`)).state;

describe.each([
  ['THORCHAIN', BTC_TO_ETH, 18],
  ['RELAY', ETH_TO_BTC, 8],
  ['LIFI', USDC_ETH_TO_ARB, 6],
] as const)('%s: execute holds what was locked', (provider, body, dstDecimals) => {
  it('refuses with 409 and hands the lock back when the price fell below the locked minimum', async () => {
    const locked = await lock(body, provider);
    t.sims[provider].configure({ priceShiftBps: -300 });
    const refused = await execute(locked.lockId);
    expectV1Error(refused, 409, 'PROVIDER_UNAVAILABLE', 'provider');
    expect(refused.body.error.message).toMatch(/price moved below the locked minimum received/);
    expect(await lockState(locked.lockId)).toBe('locked');
    expect(
      await firstRow(t.app.sql`select count(*)::int as n from transactions where lock_id = ${locked.lockId}`),
    ).toEqual({
      n: 0,
    });

    t.sims[provider].configure({ priceShiftBps: 0 });
    expect((await execute(locked.lockId)).status).toBe(200);
  });

  it('within the slippage, the response shows the minimum the signed payload enforces: the locked one', async () => {
    const locked = await lock(body, provider);
    t.sims[provider].configure({ priceShiftBps: -40 });
    const res = await execute(locked.lockId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { quote } = res.body.data;
    const lockedMin = parseUnits(locked.minimumReceived, dstDecimals);
    const shownMin = parseUnits(quote.minimumReceived, dstDecimals);
    expect(shownMin).toBeGreaterThanOrEqual(lockedMin);
    // The fresh expected amount is what the transaction records and the response shows.
    expect(Number(quote.dst.amount)).toBeLessThan(Number(locked.dst.amount));
    const tx = await firstRow(
      t.app.sql`select dst_amount from transactions where id = ${res.body.data.transaction.id}`,
    );
    expect(tx.dst_amount).toBe(quote.dst.amount);
    if (provider === 'THORCHAIN') {
      // The memo's limit (1e8 units of ETH) is the minimum shown.
      expect(memoLimit(res.body.data.providerResult.depositMemo)).toBe(shownMin / 10n ** 10n);
    }
  });
});
