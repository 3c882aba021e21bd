import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireUnfundedSwaps } from '../server/tracking/expiry';
import { isPollable, pollTransaction } from '../server/tracking/poll';
import { sweep } from '../server/tracking/sweep';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Error } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const HOUR = 3600_000;

async function row(id: string) {
  const [tx] = await t.app.sql<
    {
      status: string;
      substatus: string | null;
      deposit_deadline: Date | null;
      created_at: Date;
      next_poll_at: Date | null;
      finalized_at: Date | null;
      inbound_hash: string;
      stale: boolean;
    }[]
  >`select status, substatus, deposit_deadline, created_at, next_poll_at, finalized_at, inbound_hash, stale
    from transactions where id = ${id}`;
  if (!tx) throw new Error(`no transaction ${id}`);
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    ...tx,
    deposit_deadline: date(tx.deposit_deadline),
    created_at: new Date(tx.created_at),
    next_poll_at: date(tx.next_poll_at),
    finalized_at: date(tx.finalized_at),
  };
}

const events = (id: string) =>
  t.app.sql<{ type: string; message: string; data: Record<string, unknown> | null }[]>`
    select type, message, data from transaction_events where transaction_id = ${id} order by id`;

/** A moment past the swap's deposit deadline and the grace period after it. */
const pastGrace = (deadline: Date) => new Date(deadline.getTime() + t.app.config.deposits.expiryGraceMs + 1000);

/** The fake THORChain network observed this inbound (unobserved: a hash the node knows nothing of). */
async function observeOnThorchain(deposit: { hash: string; unobserved?: boolean }) {
  const observed = await fetch(`${t.sims.THORCHAIN.url}/__sim/thorchain/observe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(deposit),
  });
  expect(observed.status).toBe(200);
}

/** A Relay swap whose deposit the simulated chain has not seen (and will not see by itself). */
async function unfundedRelaySwap() {
  t.sims.RELAY.configure({ autoDepositMs: null });
  return (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id as string;
}

describe('a swap whose deposit never comes', () => {
  it('keeps the provider’s deposit deadline, or the configured window when the provider names none', async () => {
    const thor = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const thorRow = await row(thor);
    // THORChain's quote expiry: sooner than the configured window, which it replaces.
    expect(thorRow.deposit_deadline?.getTime()).toBeGreaterThan(thorRow.created_at.getTime());
    expect(thorRow.deposit_deadline?.getTime()).toBeLessThan(thorRow.created_at.getTime() + HOUR - 60_000);

    const relay = await row(await unfundedRelaySwap());
    const window = (relay.deposit_deadline?.getTime() ?? 0) - relay.created_at.getTime();
    expect(window).toBeGreaterThan(t.app.config.deposits.windowMs - 60_000);
    expect(window).toBeLessThan(t.app.config.deposits.windowMs + 60_000);
  });

  it('ends FAILED / EXPIRED once the window and the grace have passed: final, untracked, with a timeline row', async () => {
    const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const deadline = (await row(id)).deposit_deadline as Date;

    await expireUnfundedSwaps(t.app, new Date(deadline.getTime() + 1000));
    expect((await row(id)).status).toBe('PENDING');

    expect(await expireUnfundedSwaps(t.app, pastGrace(deadline))).toBeGreaterThanOrEqual(1);
    const ended = await row(id);
    expect(ended).toMatchObject({ status: 'FAILED', substatus: 'EXPIRED', next_poll_at: null });
    expect(ended.finalized_at).not.toBeNull();
    expect(isPollable(t.app, { status: 'FAILED', substatus: 'EXPIRED', finalizedAt: new Date() })).toBe(false);

    const changed = (await events(id)).filter((e) => e.type === 'status_changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]?.message).toMatch(/no deposit was seen before THORChain stopped taking it.*expired/);
    expect(changed[0]?.data).toMatchObject({ substatus: 'EXPIRED' });

    const status = await t.json(`/api/v1/transaction/status?transactionId=${id}`);
    expect(status.body.data).toMatchObject({ final: true, transaction: { status: 'FAILED', substatus: 'EXPIRED' } });

    // Nothing more happens to it on a later sweep.
    await expireUnfundedSwaps(t.app, pastGrace(deadline));
    expect((await events(id)).filter((e) => e.type === 'status_changed')).toHaveLength(1);
  });

  it('answers a hash reported after it expired with 409 SWAP_EXPIRED, and keeps the hash on the timeline for support', async () => {
    const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    await expireUnfundedSwaps(t.app, pastGrace((await row(id)).deposit_deadline as Date));
    const late = randomHex();
    await observeOnThorchain({ hash: late, unobserved: true });
    const res = await t.post('/api/v1/transaction/track', { transactionId: id, txHash: late });
    expectV1Error(res, 409, 'SWAP_EXPIRED', 'txHash');
    expect(res.body.error.message).toMatch(/expired before a deposit was seen/);
    expect((await row(id)).status).toBe('FAILED');
    const kept = (await events(id)).find((e) => e.type === 'track_ignored');
    expect(kept?.data).toMatchObject({ txHash: late, substatus: 'EXPIRED' });

    // Refreshing without a hash is no error: the swap is final.
    const refresh = await t.post('/api/v1/transaction/track', { transactionId: id });
    expect(refresh.status).toBe(200);
    expect(refresh.body.data).toMatchObject({ final: true, tracking: false });
  });

  it('re-opens when the node verifies a hash reported after expiry as an inbound to our vault with our memo', async () => {
    const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    await expireUnfundedSwaps(t.app, pastGrace((await row(id)).deposit_deadline as Date));
    expect(await row(id)).toMatchObject({ status: 'FAILED', substatus: 'EXPIRED' });
    // The wallet did pay, following the quote (its vault and memo), and reports the hash late.
    const late = randomHex();
    await observeOnThorchain({ hash: late });
    const res = await t.post('/api/v1/transaction/track', { transactionId: id, txHash: late });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ final: false, tracking: true, transaction: { status: 'PENDING' } });
    const reopened = (await events(id)).find((e) => e.data?.reopenedAfterExpiry === true);
    expect(reopened?.message).toMatch(/FAILED → PENDING: THORChain verified .* re-opened/);
    for (let poll = 0; poll < 10 && (await row(id)).status === 'PENDING'; poll++) await pollTransaction(t.app, id);
    expect(await row(id)).toMatchObject({ status: 'SUCCESS', substatus: 'COMPLETED' });
  });

  it('asks a provider that can be asked first: a deposit it saw after all keeps the swap, tracked as usual', async () => {
    const id = await unfundedRelaySwap();
    const [stored] = await t.app.sql<{ trackingContext: Record<string, unknown> }[]>`
      select tracking_context as "trackingContext" from transactions where id = ${id}`;
    const trackingContext = stored?.trackingContext ?? {};
    const depositDeadline = (await row(id)).deposit_deadline as Date;
    // The chain saw the deposit, though the client never reported it.
    const hash = `0x${randomHex()}`;
    const seen = await fetch(`${t.sims.RELAY.url}/__sim/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash, context: trackingContext }),
    });
    expect(seen.status).toBe(200);

    await expireUnfundedSwaps(t.app, pastGrace(depositDeadline));
    const kept = await row(id);
    expect(kept.status).toBe('PENDING');
    expect(kept.inbound_hash.toLowerCase()).toBe(hash);
  });

  it('never expires a swap on a missing answer: a provider that cannot be asked now leaves it for the next sweep', async () => {
    const id = await unfundedRelaySwap();
    const deadline = (await row(id)).deposit_deadline as Date;
    t.sims.RELAY.configure({ faults: { status: 'error5xx' } });
    try {
      await expireUnfundedSwaps(t.app, pastGrace(deadline));
      expect((await row(id)).status).toBe('PENDING');
    } finally {
      t.sims.RELAY.configure({ faults: { status: 'none' } });
    }
    await expireUnfundedSwaps(t.app, pastGrace(deadline));
    expect(await row(id)).toMatchObject({ status: 'FAILED', substatus: 'EXPIRED' });
  });

  it('is never flagged stale while it waits for its deposit; a swap in flight is', async () => {
    const waiting = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const inFlight = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    await t.post('/api/v1/transaction/track', { transactionId: inFlight, txHash: randomHex() });
    // Both past the time THORChain quoted, which a swap must pass to be late, on a route with no times (the
    // fixed stale age is for those; a swap with a late_at turns late instead).
    await t.app.sql`update transactions set created_at = now() - interval '1 day', expected_by = null, late_at = null
      where id in (${waiting}, ${inFlight})`;
    const quickToStale = { ...t.app, config: { ...t.app.config, worker: { ...t.app.config.worker, staleAfterMs: 1 } } };
    await sweep(quickToStale, t.app.tracking as never);
    expect((await row(waiting)).stale).toBe(false);
    expect((await row(inFlight)).stale).toBe(true);
  });
});
