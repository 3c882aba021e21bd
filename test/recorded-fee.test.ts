import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollTransaction } from '../server/tracking/poll';
import { startTestApp, type TestApp } from './support/app';
import { firstRow } from './support/assertions';
import { callerFor, signedInUser } from './support/dashboard';
import { ADDR, BTC_TO_ETH, ETH_TO_BTC, USDC_ETH_TO_ARB, WALLETS } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const USDC_TO_BTC = {
  srcChain: 'ethereum',
  srcAddress: ADDR.ethUsdc,
  dstChain: 'bitcoin',
  dstAddress: 'native',
  amount: '2500',
  depositor: WALLETS.evm,
  recipient: WALLETS.bitcoin,
};

const feeColumns = (id: string) =>
  firstRow(t.app.sql`
    select quoted_fee_usd::float8 as quoted, fee_amount as amount, fee_currency as currency,
           fee_amount_usd::float8 as "recordedUsd"
    from transactions where id = ${id}`);

async function statusFee(id: string) {
  const res = await t.json(`/api/v1/transaction/status?transactionId=${id}`);
  expect(res.status).toBe(200);
  return res.body.data.transaction.fee;
}

async function pollUntilSettled(id: string) {
  for (let i = 0; i < 5; i++) {
    const outcome = await pollTransaction(t.app, id);
    if (outcome.status !== 'PENDING') return;
  }
  throw new Error(`${id} did not settle within 5 polls`);
}

interface FeeLine {
  amount: string;
  currency: string;
  amountUsd: number | null;
}

/** The catalog's USD price of a symbol, as the fee model reads it: the first priced asset by id. */
async function catalogPrice(symbol: string): Promise<number> {
  const [row] = await t.app.sql`
    select price_usd::float8 as price from assets
    where active and upper(symbol) = upper(${symbol}) and price_usd is not null order by id limit 1`;
  if (!row) throw new Error(`no price for ${symbol}`);
  return row.price;
}

/** Each line at the catalog price, to the cent, and their sum: what every view must show. */
async function pricedTotal(lines: FeeLine[]): Promise<number> {
  let cents = 0;
  for (const line of lines) {
    const lineCents = Math.round(Number(line.amount) * (await catalogPrice(line.currency)) * 100);
    expect(line.amountUsd, `${line.amount} ${line.currency}`).toBe(lineCents / 100);
    cents += lineCents;
  }
  return cents / 100;
}

describe('the fee quoted at execute and the fee the provider records', () => {
  it('keeps the USD fee quoted at execute when a poll records a native amount (Chainflip)', async () => {
    t.sims.CHAINFLIP.configure({ outcome: 'success', settleAfterPolls: 1 });
    const executed = await executeSwap(t, USDC_TO_BTC, 'CHAINFLIP');
    const quoted = Number(executed.fee.usd);
    expect(quoted).toBeGreaterThan(0);
    const id = executed.transaction.id;
    expect(await feeColumns(id)).toEqual({ quoted, amount: null, currency: null, recordedUsd: null });
    expect(await statusFee(id)).toMatchObject({
      usd: quoted,
      amount: String(quoted),
      currency: 'USD',
      amountUsd: quoted,
      formatted: `${quoted} USD`,
    });

    await pollUntilSettled(id);
    const stored = await feeColumns(id);
    expect(stored).toMatchObject({ quoted, currency: 'USDC' });
    expect(stored.amount).toMatch(/^\d+\.\d+$/);
    expect(Number(stored.amount)).not.toBe(quoted);
    const fee = await statusFee(id);
    // Chainflip states no USD: every recorded line is priced and the total is their sum.
    expect(stored.recordedUsd).toBe(await pricedTotal(fee.details));
    expect(fee).toMatchObject({
      usd: quoted,
      amount: stored.amount,
      currency: 'USDC',
      amountUsd: stored.recordedUsd,
      formatted: `${stored.amount} USDC`,
    });

    const history = await t.json(`/api/v1/transaction/history?addresses=${WALLETS.evm}`);
    expect(history.body.data.find((tx: { id: string }) => tx.id === id)?.fee).toEqual(fee);

    const support = await callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
    const detail = await support.transactions.detail({ id });
    expect(detail.transaction.fee).toEqual({
      usd: stored.recordedUsd,
      quotedUsd: quoted,
      actualUsd: stored.recordedUsd,
      items: fee.details,
    });
  });

  it('reads a fee in several assets the same way from quote to settlement, and the totals count it (Chainflip ETH → BTC)', async () => {
    t.sims.CHAINFLIP.configure({ outcome: 'success', settleAfterPolls: 1 });
    const affiliate = await callerFor(t.app, (await signedInUser(t.app, 'affiliate')).headers);
    await affiliate.affiliates.createCode({ code: 'FEES-MULTI' });
    const request = { ...ETH_TO_BTC, referralCode: 'FEES-MULTI' };

    const quoted = await t.post('/api/v1/quote', request);
    const route = quoted.body.data.find((r: { provider: string }) => r.provider === 'CHAINFLIP');
    const currencies = new Set(route.fee.details.map((line: FeeLine) => line.currency));
    expect(currencies.size, JSON.stringify(route.fee.details)).toBeGreaterThan(1);
    expect(currencies).toContain('USDC');
    expect(route.fee.usd).toBe(await pricedTotal(route.fee.details));
    expect(route.feeBreakdown).toEqual({
      total: { usd: route.fee.usd, formatted: route.fee.formatted, currency: route.fee.currency },
      items: route.fee.details,
    });

    const locked = await t.post('/api/v1/quote/lock', { ...request, provider: 'CHAINFLIP' });
    expect(locked.body.data.fee.usd).toBe(await pricedTotal(locked.body.data.fee.details));
    const executed = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId });
    expect(executed.body.data.fee).toEqual(locked.body.data.fee);
    const id = executed.body.data.transaction.id;
    expect((await feeColumns(id)).quoted).toBe(locked.body.data.fee.usd);

    await pollUntilSettled(id);
    const fee = await statusFee(id);
    const actual = await pricedTotal(fee.details);
    expect(fee).toMatchObject({ usd: locked.body.data.fee.usd, amountUsd: actual });
    const [row] = await t.app.sql`select fee_usd::float8 as "feeUsd", status from transactions where id = ${id}`;
    expect(row).toEqual({ feeUsd: actual, status: 'SUCCESS' });

    const overview = await affiliate.affiliates.overview({ range: '7d' });
    expect(overview.totals).toMatchObject({ swaps: 1, feesUsd: actual });

    // A swap recorded before the fee model had no USD on its lines nor in total: the backfill prices it.
    const unpriced = fee.details.map((line: FeeLine) => ({ ...line, amountUsd: null }));
    await t.app.sql`
      update transactions set fee_amount_usd = null, quoted_fee_usd = null, fee_details = ${JSON.stringify(unpriced)}::jsonb
      where id = ${id}`;
    expect((await affiliate.affiliates.overview({ range: '7d' })).totals.feesUsd).toBe(0);
    await t.app.sql.unsafe(readFileSync('drizzle/migrations/0015_fee_usd_backfill.sql', 'utf8'));
    expect(await feeColumns(id)).toMatchObject({ recordedUsd: actual });
    expect((await affiliate.affiliates.overview({ range: '7d' })).totals.feesUsd).toBe(actual);
  });

  const FLOWS = [
    { provider: 'RELAY', body: ETH_TO_BTC, hash: undefined },
    { provider: 'THORCHAIN', body: BTC_TO_ETH, hash: () => randomHex() },
    { provider: 'CHAINFLIP', body: ETH_TO_BTC, hash: undefined },
    { provider: 'LIFI', body: USDC_ETH_TO_ARB, hash: () => `0x${randomHex()}` },
  ] as const;
  for (const flow of FLOWS) {
    it(`${flow.provider}: every fee line and the total in USD from quote to settlement, so the totals count it`, async () => {
      t.sims[flow.provider].configure({ outcome: 'success', settleAfterPolls: 1, autoDepositMs: 0 });
      const quoted = await t.post('/api/v1/quote', flow.body);
      const route = quoted.body.data.find((r: { provider: string }) => r.provider === flow.provider);
      expect(route.fee.details.length).toBeGreaterThan(0);
      for (const line of route.fee.details) expect(typeof line.amountUsd, JSON.stringify(line)).toBe('number');
      expect(typeof route.fee.usd).toBe('number');
      expect(route.feeBreakdown.total.usd).toBe(route.fee.usd);

      const executed = await executeSwap(t, flow.body, flow.provider);
      const id = executed.transaction.id;
      expect(typeof executed.fee.usd).toBe('number');
      expect((await feeColumns(id)).quoted).toBe(executed.fee.usd);
      if (flow.hash) await t.post('/api/v1/transaction/track', { transactionId: id, txHash: flow.hash() });
      await pollUntilSettled(id);
      const [row] = await t.app.sql`
        select fee_usd::float8 as "feeUsd", coalesce(fee_amount_usd, quoted_fee_usd)::float8 as best
        from transactions where id = ${id}`;
      expect(typeof row?.feeUsd).toBe('number');
      expect(row?.feeUsd).toBe(row?.best);
      expect((await statusFee(id)).amountUsd).toBe(row?.feeUsd);
    });
  }

  it('keeps a recorded USD fee beside a different quoted one (LI.FI): neither replaces the other', async () => {
    t.sims.LIFI.configure({ outcome: 'success', settleAfterPolls: 1 });
    const executed = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
    const quoted = Number(executed.fee.usd);
    const id = executed.transaction.id;
    await t.post('/api/v1/transaction/track', { transactionId: id, txHash: `0x${'ab'.repeat(32)}` });
    await pollUntilSettled(id);
    const stored = await feeColumns(id);
    expect(stored.quoted).toBe(quoted);
    expect(stored.currency).toBe('USD');
    expect(stored.recordedUsd).toBe(Number(stored.amount));
    expect(stored.recordedUsd).not.toBe(quoted);

    expect(await statusFee(id)).toMatchObject({
      usd: quoted,
      amount: stored.amount,
      currency: 'USD',
      amountUsd: stored.recordedUsd,
    });
  });
});
