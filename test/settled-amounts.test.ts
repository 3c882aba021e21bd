import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollTransaction } from '../server/tracking/poll';
import { startTestApp, type TestApp } from './support/app';
import { callerFor, signedInUser } from './support/dashboard';
import { BTC_TO_ETH, ETH_TO_BTC, WALLETS } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

interface Line {
  label: string;
  amount: string;
  currency: string;
  amountUsd: number | null;
  basis?: string;
}

async function status(id: string) {
  const res = await t.json(`/api/v1/transaction/status?transactionId=${id}`);
  expect(res.status).toBe(200);
  return res.body.data.transaction;
}

async function pollUntil(id: string, done: (tx: { status: string; fee: { details: Line[] } }) => boolean) {
  for (let i = 0; i < 12; i++) {
    await pollTransaction(t.app, id);
    const tx = await status(id);
    if (done(tx)) return tx;
  }
  throw new Error(`${id} did not get there within 12 polls`);
}

const support = async () => callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
const labelsOf = (lines: Line[]) =>
  lines.map((line) => `${line.label} ${line.currency}${line.basis ? ` (${line.basis})` : ''}`);

describe('Chainflip: the fee actually paid, line for line as quoted (#46 item 4)', () => {
  it('keeps the liquidity fees it never reports and the lines not charged yet, so no total is a partial sum', async () => {
    t.sims.CHAINFLIP.configure({ outcome: 'success', settleAfterPolls: 4 });
    const executed = await executeSwap(t, ETH_TO_BTC, 'CHAINFLIP');
    const quoted: Line[] = executed.fee.details;
    const quotedUsd = Number(executed.fee.usd);
    expect(labelsOf(quoted).filter((l) => l.startsWith('Liquidity provider fee'))).toHaveLength(2);

    const id = executed.transaction.id;
    // Midway: the deposit fee is reported, the rest is not charged yet.
    const midway = await pollUntil(
      id,
      (tx) =>
        tx.status !== 'PENDING' ||
        (tx.fee.details.some((line) => line.basis === 'pending') && tx.fee.details.some((line) => !line.basis)),
    );
    expect(midway.status).toBe('PENDING');
    const early: Line[] = midway.fee.details;
    // Every quoted line is there: reported ones as such, the rest at their quoted amount and marked.
    expect(early).toHaveLength(quoted.length);
    expect(early.filter((line) => line.basis === undefined).map((line) => line.label)).toEqual([
      'Deposit (ingress) fee',
    ]);
    expect(early.filter((line) => line.basis === 'pending').map((line) => line.label)).toEqual([
      'Chainflip network fee',
      'Payout (egress) fee',
    ]);
    expect(early.filter((line) => line.label === 'Liquidity provider fee').every((l) => l.basis === 'quoted')).toBe(
      true,
    );
    expect(midway.fee.amountUsd).toBeGreaterThan(quotedUsd * 0.9);
    expect(midway.fee.amountUsd).toBeLessThan(quotedUsd * 1.1);

    const done = await pollUntil(id, (tx) => tx.status !== 'PENDING');
    expect(done.status).toBe('SUCCESS');
    const settled: Line[] = done.fee.details;
    expect(labelsOf(settled)).toEqual(
      labelsOf(quoted).map((label) => (label.startsWith('Liquidity provider fee') ? `${label} (quoted)` : label)),
    );
    expect(done.fee.amountUsd).toBeGreaterThan(quotedUsd * 0.9);
    expect(done.fee.amountUsd).toBeLessThan(quotedUsd * 1.1);

    const detail = await (await support()).transactions.detail({ id });
    expect(detail.transaction.fee).toMatchObject({ quotedUsd, actualUsd: done.fee.amountUsd, items: settled });
  });
});

describe('received amounts and refunds read as what they are (#46 item 5)', () => {
  it('a THORChain swap settled at another amount than quoted keeps the quoted one beside it', async () => {
    t.sims.THORCHAIN.configure({ outcome: 'success', settleAfterPolls: 1, autoDepositMs: null });
    const executed = await executeSwap(t, { ...BTC_TO_ETH, amount: '1.5' }, 'THORCHAIN');
    const id = executed.transaction.id;
    const before = await status(id);
    expect(before).toMatchObject({ quotedDstAmount: null, refund: null });
    await t.post('/api/v1/transaction/track', { transactionId: id, txHash: randomHex() });
    const done = await pollUntil(id, (tx) => tx.status !== 'PENDING');
    expect(done.status).toBe('SUCCESS');
    expect(done.dstAmount).not.toBe(before.dstAmount);
    expect(done).toMatchObject({ quotedDstAmount: before.dstAmount, refund: null });

    const detail = await (await support()).transactions.detail({ id });
    expect(detail.transaction).toMatchObject({ dstAmount: done.dstAmount, quotedDstAmount: before.dstAmount });
  });

  it('a THORChain refund says what came back, to whom and in which transaction; the received amount is not claimed', async () => {
    t.sims.THORCHAIN.configure({ outcome: 'refund', settleAfterPolls: 1, autoDepositMs: null });
    const executed = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const id = executed.transaction.id;
    await t.post('/api/v1/transaction/track', { transactionId: id, txHash: randomHex() });
    const done = await pollUntil(id, (tx) => tx.status !== 'PENDING');
    expect(done.status).toBe('REFUND');
    expect(done.refund).toEqual({
      amount: expect.stringMatching(/^0\.\d+$/),
      kept: expect.stringMatching(/^0\.\d+$/),
      to: WALLETS.bitcoin,
      chain: 'bitcoin',
      hash: done.outboundHash,
      feeReported: false,
    });
    expect(Number(done.refund.amount)).toBeLessThan(Number(BTC_TO_ETH.amount));
    expect(Number(done.refund.amount) + Number(done.refund.kept)).toBeCloseTo(Number(BTC_TO_ETH.amount), 8);
    expect(done.quotedDstAmount).toBeNull();

    const detail = await (await support()).transactions.detail({ id });
    expect(detail.transaction.refund).toEqual(done.refund);
    // Its transaction is named a refund and links the source chain's explorer, where it went.
    expect(detail.hashes.at(-1)).toEqual({
      label: 'Refund',
      value: done.outboundHash,
      url: `https://mempool.space/tx/${done.outboundHash}`,
    });
    expect(detail.events.map((e) => e.message)).toContain(`Refund transaction ${done.outboundHash}`);
  });

  it('a Chainflip refund carries its own fee lines, none of the quoted swap fee', async () => {
    t.sims.CHAINFLIP.configure({ outcome: 'refund', settleAfterPolls: 1 });
    const executed = await executeSwap(t, ETH_TO_BTC, 'CHAINFLIP');
    const id = executed.transaction.id;
    const done = await pollUntil(id, (tx) => tx.status !== 'PENDING');
    expect(done.status).toBe('REFUND');
    expect(done.refund).toMatchObject({ to: WALLETS.evm, hash: done.outboundHash, feeReported: true });
    expect(Number(done.refund.amount)).toBeGreaterThan(0);
    expect(Number(done.refund.amount)).toBeLessThan(Number(ETH_TO_BTC.amount));
    const labels = (done.fee.details as Line[]).map((line) => line.label);
    expect(labels).not.toContain('Liquidity provider fee');
    expect((done.fee.details as Line[]).every((line) => line.basis === undefined)).toBe(true);
  });
});
