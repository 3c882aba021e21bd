import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, signedInUser } from './support/dashboard';
import { BTC_TO_ETH, USDC_ETH_TO_ARB, WALLETS } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';
import { insertTransactions } from './support/seed-transactions';

let t: TestApp;
let support: Caller;

beforeAll(async () => {
  t = await startTestApp();
  support = await callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
});
afterAll(async () => {
  await t?.stop();
});

const pollBookkeeping = async (id: string) => {
  const [row] = await t.app.sql<{ attempts: number; polledAt: Date | null }[]>`
    select poll_attempts as attempts, last_polled_at as "polledAt" from transactions where id = ${id}`;
  return row;
};

describe('transactions.pollNow says what happened', () => {
  it('polls a tracked swap, and the poll shows in poll_attempts and last_polled_at', async () => {
    t.sims.LIFI.configure({ settleAfterPolls: 5, outcome: 'success' });
    const { transaction } = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
    await t.post('/api/v1/transaction/track', { transactionId: transaction.id, txHash: `0x${randomHex()}` });
    const before = await pollBookkeeping(transaction.id);
    const result = await support.transactions.pollNow({ id: transaction.id });
    const after = await pollBookkeeping(transaction.id);
    expect(result).toMatchObject({ polled: true, status: 'PENDING', providerError: null });
    expect(after?.attempts).toBe((before?.attempts ?? 0) + 1);
    expect(result.polled && result.lastPolledAt?.getTime()).toBe(new Date(after?.polledAt ?? 0).getTime());
  });

  it('does not claim a poll on a final swap', async () => {
    const [tx] = await insertTransactions(t.app, [
      { status: 'SUCCESS', wallet: WALLETS.evm, recipient: WALLETS.bitcoin, createdAt: new Date() },
    ]);
    const id = tx?.id ?? '';
    const before = await pollBookkeeping(id);
    const result = await support.transactions.pollNow({ id });
    expect(result).toEqual({ polled: false, status: 'SUCCESS', reason: expect.stringMatching(/final/) });
    expect(await pollBookkeeping(id)).toEqual(before);
    const detail = await support.transactions.detail({ id });
    expect(detail.events.map((e) => e.type)).not.toContain('manual_poll');
  });

  it('does not claim a poll on a deposit swap without a hash, and says the hash is missing', async () => {
    const { transaction } = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const before = await pollBookkeeping(transaction.id);
    const result = await support.transactions.pollNow({ id: transaction.id });
    expect(result).toEqual({ polled: false, status: 'PENDING', reason: expect.stringMatching(/no hash/) });
    expect(await pollBookkeeping(transaction.id)).toEqual(before);
  });
});

describe('transactions.search by hash prefix', () => {
  it('finds source and outbound hashes from 8 characters after any 0x, in any case', async () => {
    const hash = `0x${randomHex()}`;
    const outboundHash = `0x${randomHex()}`;
    const [tx, other] = await insertTransactions(t.app, [
      { hash, outboundHash, wallet: WALLETS.evm, recipient: WALLETS.bitcoin, createdAt: new Date() },
      { wallet: WALLETS.evm, recipient: WALLETS.bitcoin, createdAt: new Date() },
    ]);
    const ids = async (query: string) => (await support.transactions.search({ query })).items.map((i) => i.id);
    expect(await ids(hash.slice(0, 10))).toEqual([tx?.id]);
    expect(await ids(hash.slice(2, 10).toUpperCase())).toEqual([tx?.id]);
    expect(await ids(outboundHash.slice(0, 12))).toEqual([tx?.id]);
    expect(await ids(other?.hash?.slice(0, 20) ?? '')).toEqual([other?.id]);
    expect(await ids(hash.slice(0, 9))).toEqual([]);
    expect(await ids(hash.slice(2, 9))).toEqual([]);
    expect(await ids(`${hash.slice(2, 10)}%`)).toEqual([]);
  });

  it('bounds the hash index scans by the prefix instead of filtering every entry', async () => {
    const plan = await t.app.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx.unsafe(
        `explain select id from transactions where hash_key like 'abcdef12%' or outbound_hash_key like 'abcdef12%'`,
      );
    });
    const text = plan.map((r) => Object.values(r)[0]).join('\n');
    expect(text).toMatch(/Index Scan on transactions_hash_key_idx/);
    expect(text).toMatch(/Index Cond: \(\(hash_key ~>=~ 'abcdef12'::text\) AND \(hash_key ~<~ 'abcdef13'::text\)\)/);
    expect(text).toMatch(/Index Cond: \(\(outbound_hash_key ~>=~ 'abcdef12'::text\)/);
  });
});
