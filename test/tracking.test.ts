import { describe, expect, it } from 'vitest';
import type { TestApp } from './support/app';
import { firstRow } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC, USDC_ETH_TO_ARB } from './support/fixtures';
import { executeSwap, randomHex, waitForStatus } from './support/flows';
import { withTrackingApp } from './support/tracking-app';

let t: TestApp;
withTrackingApp(3, (app) => {
  t = app;
});

const FLOWS = [
  { provider: 'RELAY', body: ETH_TO_BTC, hash: undefined },
  { provider: 'CHAINFLIP', body: BTC_TO_ETH, hash: undefined },
  { provider: 'THORCHAIN', body: BTC_TO_ETH, hash: () => randomHex() },
  { provider: 'LIFI', body: USDC_ETH_TO_ARB, hash: () => `0x${randomHex()}` },
] as const;

const EXPECTED = { success: 'SUCCESS', failure: 'FAILED', refund: 'REFUND' } as const;
/** Relay's failure ends FAILED only after minutes without a refund (server/providers/relay/failure-not-final.test.ts). */
const endingsOf = (provider: string) =>
  provider === 'RELAY' ? (['success', 'refund'] as const) : (['success', 'failure', 'refund'] as const);

describe('tracking end to end: execute → worker → status', () => {
  for (const flow of FLOWS) {
    for (const outcome of endingsOf(flow.provider)) {
      it(`${flow.provider} ends in ${EXPECTED[outcome]}`, async () => {
        // A flow whose client reports its hash deposits under that hash, as live; the others deposit at once.
        t.sims[flow.provider].configure({ outcome, ...(flow.hash ? { autoDepositMs: null } : {}) });
        const executed = await executeSwap(t, flow.body, flow.provider);
        const id = executed.transaction.id;
        if (flow.hash) {
          const tracked = await t.post('/api/v1/transaction/track', { transactionId: id, txHash: flow.hash() });
          expect(tracked.status, JSON.stringify(tracked.body)).toBe(200);
          expect(tracked.body.data).toMatchObject({ final: false, tracking: true });
        }
        const final = await waitForStatus(t, id, (tx) => tx.status !== 'PENDING');
        expect(final.transaction.status).toBe(EXPECTED[outcome]);
        expect(final.final).toBe(true);
        if (outcome === 'success') expect(final.transaction.outboundHash).toBeTruthy();
        const events = await t.app
          .sql`select type, from_status, to_status from transaction_events where transaction_id = ${id} order by id`;
        const types = events.map((e) => e.type);
        expect(types[0]).toBe('created');
        expect(types).toContain('status_changed');
        expect(events.find((e) => e.type === 'status_changed')).toMatchObject({
          from_status: 'PENDING',
          to_status: EXPECTED[outcome],
        });
      });
    }
  }
});

describe('GET /api/v1/transaction/status', () => {
  it('finds a settled swap by id and by each of its three hashes, with every spec field', async () => {
    t.sims.LIFI.configure({ outcome: 'success', autoDepositMs: null });
    const executed = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
    const sourceHash = `0x${randomHex()}`;
    await t.post('/api/v1/transaction/track', { transactionId: executed.transaction.id, txHash: sourceHash });
    const done = await waitForStatus(t, executed.transaction.id, (tx) => tx.status === 'SUCCESS');
    const tx = done.transaction;
    expect(Object.keys(tx).sort()).toEqual(
      [
        'createdAt',
        'dstAmount',
        'dstAsset',
        'explorerUrls',
        'fee',
        'hash',
        'id',
        'inboundHash',
        'outboundHash',
        'provider',
        'quotedDstAmount',
        'reason',
        'recipientWalletAddress',
        'refund',
        'srcAmount',
        'srcAsset',
        'status',
        'substatus',
        'updatedAt',
        'walletAddress',
      ].sort(),
    );
    for (const key of [
      'id',
      'hash',
      'inboundHash',
      'provider',
      'srcAmount',
      'dstAmount',
      'walletAddress',
      'recipientWalletAddress',
    ]) {
      expect(typeof tx[key], key).toBe('string');
    }
    expect(new Date(tx.createdAt).toISOString()).toBe(tx.createdAt);
    expect(tx.srcAsset).toEqual({
      id: expect.any(Number),
      symbol: 'USDC',
      contract: USDC_ETH_TO_ARB.srcAddress,
      image: expect.any(String),
      chain: 'ethereum',
    });
    expect(tx.fee).toHaveProperty('amountUsd');
    for (const hash of [tx.hash, tx.inboundHash, tx.outboundHash, tx.hash.toUpperCase().replace('0X', '0x')]) {
      const res = await t.json(`/api/v1/transaction/status?hash=${encodeURIComponent(hash)}`);
      expect(res.status, hash).toBe(200);
      expect(res.body.data.transaction.id).toBe(tx.id);
    }
  });

  it('answers 400 without transactionId or hash and 404 for unknown ones', async () => {
    const none = await t.json('/api/v1/transaction/status');
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'transactionId' });
    expect((await t.json('/api/v1/transaction/status?transactionId=tx_0000000000000000000000')).body.error.code).toBe(
      'NOT_FOUND',
    );
    expect((await t.json(`/api/v1/transaction/status?hash=0x${'ab'.repeat(32)}`)).status).toBe(404);
  });
});

const TON_WALLET = 'UQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_p0p';

/** A TON swap through Relay still waiting for its deposit, and an external message to its wallet as a BoC. */
async function tonSwapAndMessage(bodyWord: number) {
  const { beginCell, external, storeMessage, Address } = await import('@ton/core');
  const message = external({ to: Address.parse(TON_WALLET), body: beginCell().storeUint(bodyWord, 32).endCell() });
  const boc = beginCell().store(storeMessage(message)).endCell();
  t.sims.RELAY.configure({ settleAfterPolls: 1000, autoDepositMs: null });
  const executed = await executeSwap(
    t,
    { ...ETH_TO_BTC, srcChain: 'ton', srcAddress: 'native', amount: '100', depositor: TON_WALLET },
    'RELAY',
  );
  return {
    transactionId: executed.transaction.id as string,
    raw: boc.hash().toString('hex'),
    bocBase64: boc.toBoc().toString('base64'),
  };
}

/** Reports the swap's BoC: the answer names its raw hash, and the stored tracking context keeps both forms. */
async function trackBocKeepingBothForms(swap: Awaited<ReturnType<typeof tonSwapAndMessage>>) {
  const res = await t.post('/api/v1/transaction/track', { transactionId: swap.transactionId, txHash: swap.bocBase64 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.transaction.hash).toBe(swap.raw);
  const row = await firstRow(t.app.sql`select tracking_context from transactions where id = ${swap.transactionId}`);
  expect(row.tracking_context.tonMessageHash).toBe(swap.raw);
  expect(row.tracking_context.tonNormalizedHash).toMatch(/^[0-9a-f]{64}$/);
  return row.tracking_context as Record<string, unknown>;
}

describe('POST /api/v1/transaction/track', () => {
  it('validates the hash for the source chain type and names the field', async () => {
    const evm = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
    for (const bad of ['0x1234', randomHex(), 'hello', `0x${randomHex()}00`]) {
      const res = await t.post('/api/v1/transaction/track', { transactionId: evm.transaction.id, txHash: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'txHash' });
    }
    const btc = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const res = await t.post('/api/v1/transaction/track', {
      transactionId: btc.transaction.id,
      txHash: `0x${randomHex()}`,
    });
    expect(res.status).toBe(200);
  });

  it('answers 404 for an unknown transaction and 400 without transactionId', async () => {
    expect((await t.post('/api/v1/transaction/track', { transactionId: 'tx_0000000000000000000000' })).status).toBe(
      404,
    );
    const missing = await t.post('/api/v1/transaction/track', { txHash: `0x${randomHex()}` });
    expect(missing.status).toBe(400);
    expect(missing.body.error.field).toBe('transactionId');
  });

  it('records the hash and an event, and ignores client-supplied provider metadata', async () => {
    t.sims.LIFI.configure({ settleAfterPolls: 1000 });
    const executed = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
    const before = await firstRow(
      t.app.sql`select tracking_context from transactions where id = ${executed.transaction.id}`,
    );
    const hash = `0x${randomHex()}`;
    const res = await t.post('/api/v1/transaction/track', {
      transactionId: executed.transaction.id,
      txHash: hash,
      provider: 'RELAY',
      requestId: '0xevil',
      channelId: '1-Ethereum-1',
      depositAddress: 'attacker',
      meta: { providerQuoteId: 'x' },
    });
    expect(res.status).toBe(200);
    // inboundHash is what the provider reports arriving; a client's report alone does not set it.
    expect(res.body.data).toEqual({
      transaction: { id: executed.transaction.id, hash, inboundHash: '', provider: 'LIFI', status: 'PENDING' },
      final: false,
      tracking: true,
    });
    const after = await firstRow(
      t.app.sql`select tracking_context, provider from transactions where id = ${executed.transaction.id}`,
    );
    expect(after).toEqual({ tracking_context: before.tracking_context, provider: 'LIFI' });
    const events = await t.app
      .sql`select type, data from transaction_events where transaction_id = ${executed.transaction.id} and type = 'track'`;
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ txHash: hash });
  });

  it('reduces a TON external-message BoC to its raw and normalised message hashes', async () => {
    const swap = await tonSwapAndMessage(0xdeadbeef);
    const context = await trackBocKeepingBothForms(swap);
    expect(context.tonNormalizedHash).not.toBe(swap.raw);
    const byHash = await t.json(`/api/v1/transaction/status?hash=${swap.raw}`);
    expect(byHash.body.data.transaction.id).toBe(swap.transactionId);
    const garbage = await t.post('/api/v1/transaction/track', {
      transactionId: swap.transactionId,
      txHash: 'te6cckEBAQEAAgAAAEysuc0=',
    });
    expect(garbage.status).toBe(400);
  });

  it('keeps both TON hash forms when a poll took the same hash from the provider first', async () => {
    const swap = await tonSwapAndMessage(0xfeedface);
    // What a poll that saw the deposit at the provider before the client reported it leaves behind.
    await t.app.sql`update transactions set hash = ${swap.raw}, hash_key = ${swap.raw}, inbound_hash = ${swap.raw}
      where id = ${swap.transactionId}`;
    const context = await trackBocKeepingBothForms(swap);
    expect(context.requestId).toEqual(expect.any(String));
  });

  it('changes nothing on a final transaction and says tracking false', async () => {
    t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 1 });
    const executed = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    const done = await waitForStatus(t, executed.transaction.id, (tx) => tx.status === 'SUCCESS');
    const res = await t.post('/api/v1/transaction/track', {
      transactionId: executed.transaction.id,
      txHash: `0x${randomHex()}`,
    });
    expect(res.body.data).toMatchObject({
      final: true,
      tracking: false,
      transaction: { hash: done.transaction.hash, status: 'SUCCESS' },
    });
  });
});

describe('timeline', () => {
  it('records the substatus of each step and notes what a partial fill swapped and refunded', async () => {
    const executed = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const hash = randomHex();
    const observed = await fetch(`${t.sims.THORCHAIN.url}/__sim/thorchain/observe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        hash,
        outcome: 'partial',
        fromAsset: 'BTC.BTC',
        toAsset: 'ETH.ETH',
        amount: '25000000',
        memo: executed.providerResult.depositMemo,
        toAddress: executed.providerResult.depositAddress,
      }),
    });
    expect(observed.status).toBe(200);
    await t.post('/api/v1/transaction/track', { transactionId: executed.transaction.id, txHash: hash });
    const done = await waitForStatus(t, executed.transaction.id, (tx) => tx.status !== 'PENDING');
    expect(done.transaction.status).toBe('SUCCESS');
    expect(done.transaction.outboundHash).toMatch(/^0x[0-9a-f]{64}$/);

    const events = await t.app.sql<{ type: string; message: string; data: any }[]>`
      select type, message, data from transaction_events where transaction_id = ${executed.transaction.id} order by id`;
    const changed = events.find((e) => e.type === 'status_changed');
    expect(changed?.data).toMatchObject({ upstreamState: 'partial', substatus: 'PARTIAL' });
    const partial = events.find((e) => e.type === 'partial_fill');
    expect(partial?.message).toMatch(/^Partial fill: [\d.]+ ETH swapped and delivered, 0\.124375 BTC refunded$/);
    const progress = events.filter((e) => e.type === 'progress').map((e) => e.data.substatus);
    expect(progress).toContain('WAITING_SOURCE_CONFIRMATIONS');
  });
});
