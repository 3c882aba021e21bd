import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../drizzle/schema';
import { notifyLateSwaps } from '../server/route-times/late';
import { webhookEventSchema } from '../server/schemas/responses';
import { transactionSearchInput } from '../server/schemas/transactions';
import { lateness, searchCondition, searchOrder, searchTransactions } from '../server/transactions/search';
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

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** The scans of `transactions` in a plan (a bitmap heap scan's index is in the node below it). */
const scansOfTransactions = (node: PlanNode): PlanNode[] => [
  ...(node['Relation Name'] === 'transactions' && node['Node Type'] !== 'Bitmap Heap Scan' ? [node] : []),
  ...(node['Node Type'] === 'Bitmap Index Scan' ? [node] : []),
  ...(node.Plans ?? []).flatMap(scansOfTransactions),
];

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

  it('are searched and sorted reading only pending swaps, under a generic plan', async () => {
    // The statement the search runs, planned for no value of its parameters (as postgres.js gets it after a
    // few executions), with sequential scans priced out so a missing index path shows. Which pending-only
    // path the planner takes on a table this small says nothing; that every scan reads only pending swaps does.
    const pendingOnly = new Set(
      (
        await t.app.sql<{ name: string }[]>`
          select indexname as name from pg_indexes
          where tablename = 'transactions' and indexdef like '%WHERE%status = ''PENDING''%'`
      ).map((row) => row.name),
    );
    expect(pendingOnly).toContain('transactions_late_created_idx');
    // [search, read in the late index's order]: a lateness sort over every pending swap that has a time has no other path.
    const searches: [object, boolean][] = [
      [{ late: true }, false],
      [{ sort: { field: 'lateness', direction: 'desc' } }, true],
      [{ sort: { field: 'lateness', direction: 'asc' } }, true],
      [{ late: true, provider: 'relay', sort: { field: 'lateness', direction: 'desc' } }, false],
      // The status filter as the planner sees it: a generic plan that cannot tell PENDING (a sliver of a year)
      // from SUCCESS walked the creation-order index to its end when nothing else matched (#44).
      [{ statuses: ['PENDING'], late: false }, false],
    ];
    for (const [search, lateIndex] of searches) {
      const input = transactionSearchInput.parse(search);
      const query = t.app.db
        .select({ id: transactions.id })
        .from(transactions)
        .where(await searchCondition(t.app, input))
        .orderBy(...searchOrder(input.sort))
        .limit(input.perPage + 1)
        .offset(0)
        .toSQL();
      const plan = await t.app.sql.begin(async (tx) => {
        await tx.unsafe('set local plan_cache_mode = force_generic_plan');
        await tx.unsafe('set local enable_seqscan = off');
        await tx.unsafe(`prepare late_search as ${query.sql}`);
        // Untyped literals take the prepared statement's parameter types.
        const args = query.params.map((p) => `'${String(p).replaceAll("'", "''")}'`).join(', ');
        const [row] = await tx.unsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
          `explain (format json) execute late_search(${args})`,
        );
        await tx.unsafe('deallocate late_search');
        return row?.['QUERY PLAN'][0].Plan as PlanNode;
      });
      const reads = scansOfTransactions(plan);
      expect(reads.length, JSON.stringify(search)).toBeGreaterThan(0);
      for (const scan of reads) {
        const pending =
          pendingOnly.has(scan['Index Name'] ?? '') || /status = 'PENDING'/.test(scan['Index Cond'] ?? '');
        expect(pending, `${JSON.stringify(search)}: ${JSON.stringify(scan)}`).toBe(true);
      }
      if (lateIndex) expect(reads.map((scan) => scan['Index Name'])).toEqual(['transactions_late_created_idx']);
    }
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

  it('are all told when a full batch ends among swaps late at the same moment', async () => {
    await swapDue(now, 3);
    await swapDue(now, 4);
    await swapDue(now, 4);
    const at = new Date(now + 10 * MIN);
    // Batches of two: the first ends on one of the two late at +4 min, so it tells only the +3 one.
    expect(await notifyLateSwaps(t.app, at, 2)).toEqual({ late: 1 });
    expect(await notifyLateSwaps(t.app, at, 2)).toEqual({ late: 2 });
    expect(await notifyLateSwaps(t.app, at, 2)).toEqual({ late: 0 });
  });
});

describe('the lateness sort', () => {
  it('pages through swaps sharing a late_at with none skipped or repeated, each page after the last (late_at, id)', async () => {
    // Not late for days, so the searches and sweeps above never see these; their referral code keeps them apart.
    const tiedAt = Date.now() + 2 * 24 * 60 * MIN;
    const referralCode = 'late-ties';
    const swaps = await insertTransactions(
      t.app,
      Array.from({ length: 7 }, () => ({
        wallet: WALLETS.evm,
        recipient: WALLETS.bitcoin,
        createdAt: new Date(tiedAt - 3 * 24 * 60 * MIN),
        referralCode,
      })),
    );
    const ids = swaps.map((swap) => swap.id);
    // One before the five that tie and one after: pages of three end inside the tie both ways.
    const offsets = [-MIN, 0, 0, 0, 0, 0, MIN];
    for (const [i, id] of ids.entries()) {
      await t.app
        .sql`update transactions set late_at = ${new Date(tiedAt + (offsets[i] ?? 0)).toISOString()}::timestamptz
        where id = ${id}`;
    }
    for (const direction of ['desc', 'asc'] as const) {
      const pages: string[][] = [];
      for (let page = 1; page <= 3; page++) {
        const input = transactionSearchInput.parse({
          referralCode,
          sort: { field: 'lateness', direction },
          page,
          perPage: 3,
        });
        pages.push((await searchTransactions(t.app, input)).items.map((item) => item.id));
      }
      const read = pages.flat();
      expect(read.length, direction).toBe(ids.length);
      expect(new Set(read), direction).toEqual(new Set(ids));
      expect(read[0], direction).toBe(direction === 'desc' ? ids[0] : ids[6]);
      // A keyset reader continues after the last row's (late_at, id) in the sort's direction: the same rows.
      for (const [n, page] of pages.slice(0, -1).entries()) {
        const after = await t.app.sql<{ id: string }[]>`
          select id from transactions
          where referral_code = ${referralCode} and status = 'PENDING' and late_at is not null
            and (late_at, id) ${t.app.sql.unsafe(direction === 'desc' ? '>' : '<')}
              (select late_at, id from transactions where id = ${page.at(-1) ?? ''})
          order by late_at ${t.app.sql.unsafe(direction === 'desc' ? 'asc' : 'desc')},
            id ${t.app.sql.unsafe(direction === 'desc' ? 'asc' : 'desc')}
          limit 3`;
        expect(pages[n + 1], `${direction}, page ${n + 2}`).toEqual(after.map((row) => row.id));
      }
    }
  });
});
