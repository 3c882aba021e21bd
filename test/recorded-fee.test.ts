import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollTransaction } from '../server/tracking/poll';
import { startTestApp, type TestApp } from './support/app';
import { firstRow } from './support/assertions';
import { callerFor, signedInUser } from './support/dashboard';
import { ADDR, USDC_ETH_TO_ARB, WALLETS } from './support/fixtures';
import { executeSwap } from './support/flows';

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
    expect(stored).toMatchObject({ quoted, currency: 'USDC', recordedUsd: null });
    expect(stored.amount).toMatch(/^\d+\.\d+$/);
    expect(Number(stored.amount)).not.toBe(quoted);
    const fee = await statusFee(id);
    expect(fee).toMatchObject({
      usd: quoted,
      amount: stored.amount,
      currency: 'USDC',
      amountUsd: quoted,
      formatted: `${stored.amount} USDC`,
    });
    expect(Array.isArray(fee.details)).toBe(true);

    const history = await t.json(`/api/v1/transaction/history?addresses=${WALLETS.evm}`);
    expect(history.body.data.find((tx: { id: string }) => tx.id === id)?.fee).toEqual(fee);

    const support = await callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
    const detail = await support.transactions.detail({ id });
    expect(detail.transaction.fee).toEqual({
      quotedUsd: quoted,
      recordedAmount: stored.amount,
      recordedCurrency: 'USDC',
      recordedUsd: null,
    });
  });

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
