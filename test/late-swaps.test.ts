import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyLateSwaps } from '../server/route-times/late';
import { webhookEventSchema } from '../server/schemas/responses';
import { transactionSearchInput } from '../server/schemas/transactions';
import { lateness, searchTransactions } from '../server/transactions/search';
import { fanOutChange } from '../server/webhooks/fan-out';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, signedInUser } from './support/dashboard';
import { WALLETS } from './support/fixtures';
import { insertTransactions } from './support/seed-transactions';

/**
 * Late: a pending swap past its `late_at` (start + the route's p90 × LATE_FACTOR). The Transactions
 * search filters and sorts by it, the sweep tells endpoints that opted in once, with `transaction.late`.
 */

let t: TestApp;
let asAdmin: Caller;
const MIN = 60_000;

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  asAdmin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
});
afterAll(() => t?.stop());

/** A swap with its expected and late times, `lateInMinutes` from `now` (negative: already late). */
async function swapDue(now: number, lateInMinutes: number, status: 'PENDING' | 'SUCCESS' = 'PENDING') {
  const [row] = await insertTransactions(t.app, [
    { wallet: WALLETS.evm, recipient: WALLETS.bitcoin, createdAt: new Date(now - 60 * MIN), status },
  ]);
  const id = row?.id as string;
  await t.app.sql`
    update transactions set expected_by = ${new Date(now + (lateInMinutes - 10) * MIN).toISOString()}::timestamptz,
      late_at = ${new Date(now + lateInMinutes * MIN).toISOString()}::timestamptz
    where id = ${id}`;
  return id;
}

describe('late swaps', () => {
  const now = Date.now();
  let late: string;
  let later: string;
  let onTime: string;
  let finished: string;
  beforeAll(async () => {
    later = await swapDue(now, -5);
    late = await swapDue(now, -30);
    onTime = await swapDue(now, 30);
    finished = await swapDue(now, -30, 'SUCCESS');
  });

  it('are pending past late_at, by how far past their usual time (injected clock)', () => {
    const row = { status: 'PENDING' as const, expectedBy: new Date(now - 40 * MIN), lateAt: new Date(now - 30 * MIN) };
    expect(lateness(row, now)).toEqual({ late: true, overdueSeconds: 2400 });
    expect(lateness(row, now - 31 * MIN)).toEqual({ late: false, overdueSeconds: null });
    expect(lateness({ ...row, status: 'SUCCESS' }, now)).toEqual({ late: false, overdueSeconds: null });
    expect(lateness({ ...row, lateAt: null, expectedBy: null }, now)).toEqual({ late: false, overdueSeconds: null });
  });

  it('are what the late filter finds, most late first when sorted by lateness', async () => {
    const search = (input: object) => searchTransactions(t.app, transactionSearchInput.parse(input));
    const found = await search({ late: true, sort: { field: 'lateness', direction: 'desc' } });
    expect(found.items.map((item) => item.id)).toEqual([late, later]);
    expect(found.items[0]).toMatchObject({ late: true, overdueSeconds: expect.any(Number) });
    const notLate = (await search({ late: false })).items.map((item) => item.id);
    expect(notLate).toEqual(expect.arrayContaining([onTime, finished]));
    expect(notLate).not.toContain(late);
  });

  it('are read through the late index, not the whole table', async () => {
    const plan = await t.app.sql.unsafe(
      `explain (format json) select id from transactions where status = 'PENDING' and late_at is not null
         and late_at <= now() order by late_at, id limit 26`,
    );
    expect(JSON.stringify(plan)).toContain('transactions_late_idx');
  });

  it('are told once, with transaction.late, to the endpoints that opted in', async () => {
    const optedIn = await asAdmin.webhooks.create({ url: 'http://127.0.0.1:9/late', scope: 'all', lateEvents: true });
    const notOptedIn = await asAdmin.webhooks.create({ url: 'http://127.0.0.1:9/all', scope: 'all' });
    expect(optedIn.endpoint.lateEvents).toBe(true);
    expect(notOptedIn.endpoint.lateEvents).toBe(false);

    expect(await notifyLateSwaps(t.app, new Date(now))).toEqual({ late: 2 });
    // The watermark moved: the same swaps are not told of again.
    expect(await notifyLateSwaps(t.app, new Date(now + MIN))).toEqual({ late: 0 });

    const sent = await fanOutChange(t.app, { transactionId: late, created: false, late: true });
    expect(sent.queued.map((m) => m.endpointId)).toEqual([optedIn.endpoint.id]);
    const [message] = await t.app.sql<{ event_type: string; payload: unknown }[]>`
      select event_type, payload from webhook_messages where transaction_id = ${late}`;
    expect(message?.event_type).toBe('transaction.late');
    expect(webhookEventSchema.parse(message?.payload)).toMatchObject({ type: 'transaction.late', data: { id: late } });
    // A second fan-out of the same state sends nothing new; a swap no longer pending is never told late.
    await fanOutChange(t.app, { transactionId: late, created: false, late: true });
    const [stored] = await t.app.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_messages where transaction_id = ${late}`;
    expect(stored?.n).toBe(1);
    expect((await fanOutChange(t.app, { transactionId: finished, created: false, late: true })).messages).toBe(0);
  });
});
