import { describe, expect, it } from 'vitest';
import { hashKey } from '../server/transactions/keys';
import type { TestApp } from './support/app';
import { firstRow } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC, WALLETS } from './support/fixtures';
import { executeSwap, randomHex, waitForStatus } from './support/flows';
import { withTrackingApp } from './support/tracking-app';

let t: TestApp;
withTrackingApp(2, (app) => {
  t = app;
});

const BTC_AMOUNT_E8 = '25000000';
const OTHER_RECIPIENT = WALLETS.evm2;

/** Tells the THORChain simulator about an inbound it observed (see SimDeposit). */
async function observe(deposit: Record<string, unknown>) {
  const res = await fetch(`${t.sims.THORCHAIN.url}/__sim/thorchain/observe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fromAsset: 'BTC.BTC', toAsset: 'ETH.ETH', amount: BTC_AMOUNT_E8, ...deposit }),
  });
  expect(res.status).toBe(200);
}

/** A BTC → ETH swap through THORChain and the deposit that really pays it. */
async function thorchainSwap() {
  const executed = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
  const { depositAddress, depositMemo } = executed.providerResult;
  const deposit = randomHex();
  await observe({ hash: deposit, memo: depositMemo, toAddress: depositAddress, outcome: 'success' });
  return { id: executed.transaction.id as string, deposit, memo: depositMemo as string, vault: depositAddress };
}

/** Someone else's settled swap: same vault and amount, paying another recipient. */
async function foreignDeposit(outcome: 'refund' | 'success') {
  const hash = randomHex();
  await observe({ hash, outcome, destination: OTHER_RECIPIENT });
  return hash;
}

const track = (transactionId: string, txHash: string) => t.post('/api/v1/transaction/track', { transactionId, txHash });

async function events(id: string) {
  return t.app.sql<{ type: string; message: string; data: any }[]>`
    select type, message, data from transaction_events where transaction_id = ${id} order by id`;
}

async function waitForEvent(id: string, type: string) {
  for (let i = 0; i < 150; i++) {
    const found = (await events(id)).find((e) => e.type === type);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${type} event on ${id}: ${JSON.stringify(await events(id))}`);
}

const row = (id: string) =>
  firstRow(t.app.sql`select status, hash, inbound_hash, hash_verified_at from transactions where id = ${id}`);

describe('a hash someone else reports cannot rewrite a swap', () => {
  it("another swap's refunded deposit is rejected and cleared; the owner's real deposit then settles the swap", async () => {
    const victim = await thorchainSwap();
    const refunded = await foreignDeposit('refund');

    const attack = await track(victim.id, refunded);
    expect(attack.status).toBe(200);
    const rejected = await waitForEvent(victim.id, 'hash_rejected');
    expect(rejected.data).toMatchObject({ hash: refunded, reason: expect.stringMatching(/memo swaps to/) });
    expect(await row(victim.id)).toMatchObject({ status: 'PENDING', hash: '', inbound_hash: '' });
    expect((await t.json(`/api/v1/transaction/status?hash=${refunded}`)).status).toBe(404);
    // The swapper is told, in the public status and its timeline, until the right hash comes.
    const told = await t.json(`/api/v1/transaction/status?transactionId=${victim.id}`);
    expect(told.body.data.transaction).toMatchObject({ status: 'PENDING', substatus: 'HASH_REJECTED', hash: '' });
    const timeline = await t.json(`/api/v1/transaction/events?transactionId=${victim.id}`);
    expect(timeline.body.data.at(-1)).toMatchObject({ type: 'hash_rejected', substatus: 'HASH_REJECTED' });

    const reported = await track(victim.id, victim.deposit);
    expect(reported.status).toBe(200);
    expect(
      (await t.json(`/api/v1/transaction/status?transactionId=${victim.id}`)).body.data.transaction.substatus,
    ).not.toBe('HASH_REJECTED');
    const done = await waitForStatus(t, victim.id, (tx) => tx.status !== 'PENDING');
    expect(done.transaction).toMatchObject({ status: 'SUCCESS', hash: victim.deposit, inboundHash: victim.deposit });
    expect((await row(victim.id)).hash_verified_at).not.toBeNull();
    const types = (await events(victim.id)).map((e) => e.type);
    expect(types).not.toContain('ignored_regression');
    expect(types.filter((type) => type === 'status_changed')).toHaveLength(1);
  });

  it('a verified hash is never replaced; later reports stay on the timeline only', async () => {
    const victim = await thorchainSwap();
    t.sims.THORCHAIN.configure({ settleAfterPolls: 1000 });
    await track(victim.id, victim.deposit);
    await waitForEvent(victim.id, 'hash_verified');

    const other = await foreignDeposit('success');
    const res = await track(victim.id, other);
    expect(res.body.data.transaction.hash).toBe(victim.deposit);
    const ignored = (await events(victim.id)).filter((e) => e.type === 'track_ignored');
    expect(ignored).toHaveLength(1);
    expect(ignored[0]?.data).toMatchObject({ txHash: other });
    expect(ignored[0]?.message).toMatch(/already verified/);
    expect((await row(victim.id)).hash).toBe(victim.deposit);
  });

  it('a junk hash reported first does not lock the owner out: the real deposit replaces it once the node has seen it', async () => {
    const victim = await thorchainSwap();
    const junk = randomHex();
    await observe({ hash: junk, unobserved: true });
    await track(victim.id, junk);
    expect((await row(victim.id)).hash).toBe(junk);

    const res = await track(victim.id, victim.deposit);
    expect(res.body.data.transaction.hash).toBe(victim.deposit);
    const done = await waitForStatus(t, victim.id, (tx) => tx.status !== 'PENDING');
    expect(done.transaction).toMatchObject({ status: 'SUCCESS', hash: victim.deposit });
  });

  it('a hash the node does not know cannot push out an unverified one either', async () => {
    const victim = await thorchainSwap();
    const first = randomHex();
    const second = randomHex();
    await observe({ hash: first, unobserved: true });
    await observe({ hash: second, unobserved: true });
    await track(victim.id, first);
    const res = await track(victim.id, second);
    expect(res.body.data.transaction.hash).toBe(first);
    const ignored = (await events(victim.id)).find((e) => e.type === 'track_ignored');
    expect(ignored?.message).toMatch(/does not know/);
  });

  it("a swap that was never paid cannot borrow another swap's success (no attributed volume)", async () => {
    const attacker = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const someoneElses = await foreignDeposit('success');
    await track(attacker.transaction.id, someoneElses);
    await waitForEvent(attacker.transaction.id, 'hash_rejected');
    expect(await row(attacker.transaction.id)).toMatchObject({ status: 'PENDING', hash: '' });
  });
});

describe('swaps tracked by an id we obtained (Relay request id)', () => {
  it('a hash that is not the deposit Relay reports is withdrawn and the reported deposit takes its place', async () => {
    // Relay's status answers nothing until the wrong hash is reported, so no poll learns the real deposit first.
    t.sims.RELAY.configure({ faults: { status: 'error5xx' } });
    const executed = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    // The chain saw the swap's real deposit; the client then reports another hash.
    const [stored] = await t.app.sql<{ context: Record<string, unknown> }[]>`
      select tracking_context as context from transactions where id = ${executed.transaction.id}`;
    const deposit = await fetch(`${t.sims.RELAY.url}/__sim/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash: `0x${randomHex()}`, context: stored?.context }),
    });
    expect(deposit.status).toBe(200);
    const wrong = `0x${randomHex()}`;
    await track(executed.transaction.id, wrong);
    t.sims.RELAY.configure({ faults: { status: 'none' } });
    const done = await waitForStatus(t, executed.transaction.id, (tx) => tx.status !== 'PENDING');
    expect(done.transaction.status).toBe('SUCCESS');
    expect(done.transaction.hash).toBe(done.transaction.inboundHash);
    expect(done.transaction.hash).not.toBe(wrong);
    expect((await events(executed.transaction.id)).find((e) => e.type === 'hash_rejected')?.data).toMatchObject({
      hash: wrong,
    });
    expect((await t.json(`/api/v1/transaction/status?hash=${wrong}`)).status).toBe(404);
  });
});

describe('status by hash answers one transaction, deterministically', () => {
  it('a verified claim wins over a newer unverified claim of the same hash', async () => {
    const owner = await thorchainSwap();
    await track(owner.id, owner.deposit);
    await waitForStatus(t, owner.id, (tx) => tx.status === 'SUCCESS');

    // A newer swap holding the same hash, reported but not yet checked.
    const copycat = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    await t.app.sql`update transactions set hash = ${owner.deposit}, hash_key = ${hashKey(owner.deposit)},
      next_poll_at = null where id = ${copycat.transaction.id}`;
    const found = await t.json(`/api/v1/transaction/status?hash=${owner.deposit}`);
    expect(found.body.data.transaction.id).toBe(owner.id);
  });

  it('between unverified claims, the oldest swap answers', async () => {
    const shared = randomHex();
    const first = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const second = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    for (const id of [first.transaction.id, second.transaction.id]) {
      await t.app.sql`update transactions set hash = ${shared}, hash_key = ${hashKey(shared)}, next_poll_at = null
        where id = ${id}`;
    }
    const found = await t.json(`/api/v1/transaction/status?hash=${shared}`);
    expect(found.body.data.transaction.id).toBe(first.transaction.id);
  });
});
