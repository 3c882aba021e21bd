import { getTableColumns } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../drizzle/schema';
import {
  ANSWER_CHANGES_CHANNEL,
  answerChanges,
  changesHeard,
  KeptAnswers,
} from '../server/transactions/answer-changes';
import { hashKey } from '../server/transactions/keys';
import { getTransactionStatus, keptTransactionStatus, PENDING_KEPT_MS } from '../server/transactions/status';
import { STATUS_FIELDS } from '../server/transactions/status-fields';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { BTC_TO_ETH, USDC_ETH_TO_ARB } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';
import { countingContext } from './support/round-trips';

let t: TestApp;
beforeAll(async () => {
  // Kept answers need a catalog kept between requests.
  t = await startTestApp({ CATALOG_CACHE_MS: '600000' });
});
afterAll(() => t?.stop());

const columns = getTableColumns(transactions);
type Column = keyof typeof columns;

/** What decides which transaction a hash finds, beside what the answer shows. */
const LOOKUP_FIELDS = ['hashKey', 'inboundHashKey', 'outboundHashKey', 'hashVerifiedAt'] as const satisfies Column[];
/** Tracking's bookkeeping: written by most polls, never part of an answer. */
const BOOKKEEPING_FIELDS = [
  'pollAttempts',
  'pollErrors',
  'lastPolledAt',
  'lastPollError',
  'nextPollAt',
  'lastUpstreamState',
  'stale',
] as const satisfies Column[];

/** An expression that gives the column another value than it has, whatever its type. */
function changed(column: string, type: string): string {
  const c = `"${column}"`;
  switch (type) {
    case 'text':
      return `coalesce(${c}, '') || 'x'`;
    case 'jsonb':
      return `coalesce(${c}, '{}'::jsonb) || '{"changed": true}'::jsonb`;
    case 'numeric':
    case 'int4':
      return `coalesce(${c}, 0) + 1`;
    case 'timestamptz':
      return `coalesce(${c}, now()) + interval '1 second'`;
    case 'bool':
      return `not coalesce(${c}, false)`;
    case 'transaction_status':
      return `(case when ${c} = 'PENDING' then 'FAILED' else 'PENDING' end)::transaction_status`;
    default:
      throw new Error(`no changed value for ${column} of type ${type}`);
  }
}

async function pending(body: Record<string, unknown> = USDC_ETH_TO_ARB, provider = 'LIFI') {
  return (await executeSwap(t, body, provider)).transaction.id as string;
}

const statusOf = async (path: string) => (await t.json(path)).body.data.transaction;

describe('the database announces a changed status answer', () => {
  it('for a change of any column the answer or the hash lookup is made of, and not for tracking bookkeeping', async () => {
    const heard: { id?: string; hashKeys?: string[]; barrier?: string }[] = [];
    const listener = postgres(t.app.config.databaseUrl, { max: 1, onnotice: () => {} });
    await listener.listen(ANSWER_CHANGES_CHANNEL, (payload) => heard.push(JSON.parse(payload)));
    const types = new Map(
      (
        await t.app.sql<{ column_name: string; udt_name: string }[]>`
          select column_name, udt_name from information_schema.columns
          where table_name = 'transactions' and is_generated = 'NEVER'`
      ).map((row) => [row.column_name, row.udt_name]),
    );
    const id = await pending();
    const hash = `0x${randomHex()}`;
    await t.app.sql`update transactions set hash = ${hash}, hash_key = ${hashKey(hash)} where id = ${id}`;
    /** Waits until everything announced so far has arrived. */
    const caughtUp = async () => {
      const barrier = randomHex(8);
      await t.app.sql`select pg_notify(${ANSWER_CHANGES_CHANNEL}, ${JSON.stringify({ barrier })})`;
      for (let i = 0; i < 200 && !heard.some((change) => change.barrier === barrier); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard.at(-1)?.barrier).toBe(barrier);
    };
    /** Changes one column and answers what was announced for the transaction meanwhile. */
    const announcedFor = async (field: Column) => {
      const { name } = columns[field];
      await caughtUp();
      heard.length = 0;
      await t.app.sql.unsafe(
        `update transactions set "${name}" = ${changed(name, types.get(name) ?? '')} where id = $1`,
        [id],
      );
      await caughtUp();
      return heard.filter((change) => change.id === id);
    };
    try {
      // A generated column (fee_usd) changes only with the columns it is made of, which are listed.
      const answerFields = [...STATUS_FIELDS, ...LOOKUP_FIELDS].filter(
        (field) => field !== 'id' && types.has(columns[field].name),
      );
      for (const field of answerFields) {
        const [before] = await t.app.sql<{ key: string }[]>`select hash_key as key from transactions where id = ${id}`;
        const announced = await announcedFor(field);
        expect(announced, `a change of ${columns[field].name}`).toHaveLength(1);
        // Every hash key the row had before or has now, so a hash moving between swaps is dropped too.
        expect(announced[0]?.hashKeys).toContain(before?.key);
      }
      for (const field of BOOKKEEPING_FIELDS) {
        expect(await announcedFor(field), `a change of ${columns[field].name}`).toHaveLength(0);
      }
    } finally {
      await listener.end();
    }
  });
});

describe('a kept status answer of a swap that can still change', () => {
  it('is answered from memory until a change is committed, by any writer, and then shows the change', async () => {
    const id = await pending();
    const path = `/api/v1/transaction/status?transactionId=${id}`;
    await changesHeard(t.app);
    const first = await statusOf(path);
    expect(first.status).toBe('PENDING');
    expect(keptTransactionStatus(t.app, { transactionId: id })?.data.transaction).toEqual(first);

    // Written behind the app's back, as another process would; no wait for the announcement here.
    await t.app.sql`update transactions set substatus = 'SWAPPING', updated_at = now()
      where id = ${id}`;
    let seen = first;
    const deadline = Date.now() + 2000;
    while (seen.substatus !== 'SWAPPING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await statusOf(path);
    }
    // Well before the bound on keeping it, so only the announcement can have dropped it.
    expect(PENDING_KEPT_MS).toBeGreaterThan(5000);
    expect(seen.substatus).toBe('SWAPPING');
  });

  it("is dropped in every web process when another one records the swap's deposit", async () => {
    const sibling = await startSibling(t, { CATALOG_CACHE_MS: '600000' });
    try {
      const id = await pending(BTC_TO_ETH, 'THORCHAIN');
      const path = `/api/v1/transaction/status?transactionId=${id}`;
      await changesHeard(t.app);
      expect((await statusOf(path)).hash).toBe('');
      expect(keptTransactionStatus(t.app, { transactionId: id })).toBeDefined();

      const deposit = randomHex();
      const tracked = await fetch(`${sibling.baseUrl}/api/v1/transaction/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transactionId: id, txHash: deposit }),
      });
      expect(tracked.status).toBe(200);
      await changesHeard(t.app);
      expect(keptTransactionStatus(t.app, { transactionId: id })).toBeUndefined();
      expect((await statusOf(path)).hash).toBe(deposit);
    } finally {
      await sibling.stop();
    }
  });

  it('by hash, follows the hash to the swap the provider vouched for it on', async () => {
    const shared = `0x${randomHex()}`;
    const reported = await pending();
    await t.app.sql`update transactions set hash = ${shared}, hash_key = ${hashKey(shared)} where id = ${reported}`;
    await changesHeard(t.app);
    const path = `/api/v1/transaction/status?hash=${shared}`;
    expect((await statusOf(path)).id).toBe(reported);
    expect(keptTransactionStatus(t.app, { hash: shared })).toBeDefined();

    // An older swap the hash is verified on now wins the lookup; only that swap's row changed.
    const vouched = await pending();
    await t.app.sql`update transactions set created_at = now() - interval '1 hour' where id = ${vouched}`;
    await t.app.sql`update transactions set hash = ${shared}, hash_key = ${hashKey(shared)}, hash_verified_at = now()
      where id = ${vouched}`;
    await changesHeard(t.app);
    expect((await statusOf(path)).id).toBe(vouched);
  });

  it('is not kept from a read that began before this process heard changes', async () => {
    const id = await pending();
    // A context of its own: its LISTEN starts with its first status read, so that read began unheard.
    const counted = countingContext(t.app);
    try {
      await getTransactionStatus(counted.ctx, { transactionId: id });
      expect(keptTransactionStatus(counted.ctx, { transactionId: id })).toBeUndefined();
      await changesHeard(counted.ctx);
      await getTransactionStatus(counted.ctx, { transactionId: id });
      expect(keptTransactionStatus(counted.ctx, { transactionId: id })).toBeDefined();
    } finally {
      await counted.close();
    }
  });

  it('is forgotten when the listening connection comes back, since changes made meanwhile were never heard', async () => {
    const id = await pending();
    const path = `/api/v1/transaction/status?transactionId=${id}`;
    await changesHeard(t.app);
    await statusOf(path);
    expect(keptTransactionStatus(t.app, { transactionId: id })).toBeDefined();
    const changes = answerChanges(t.app);
    const listens = changes.listens;

    const admin = postgres(t.app.config.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      // The listener's connection goes; the change below is announced while nobody of this app listens.
      const [ended] = await admin<{ ended: boolean }[]>`
        select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and query ilike ${`listen%${ANSWER_CHANGES_CHANNEL}%`}`;
      expect(ended?.ended).toBe(true);
      await admin`update transactions set substatus = 'SWAPPING' where id = ${id}`;
      for (let i = 0; i < 300 && changes.listens === listens; i++) await new Promise((r) => setTimeout(r, 10));
      expect(changes.listens).toBe(listens + 1);
      expect(keptTransactionStatus(t.app, { transactionId: id })).toBeUndefined();
      expect((await statusOf(path)).substatus).toBe('SWAPPING');
    } finally {
      await admin.end();
    }
  });
});

describe('kept answers and the reads that make them', () => {
  it('keep nothing from a read that a change overtook, and keep a later one', () => {
    const kept = new KeptAnswers<string>(10);
    const overtaken = kept.beginRead('id:a');
    const other = kept.beginRead('id:b');
    kept.forget(['id:a']);
    kept.finishRead('id:a', overtaken, { value: 'old', keptUntil: Date.now() + 60_000 });
    kept.finishRead('id:b', other, { value: 'b', keptUntil: Date.now() + 60_000 });
    expect(kept.get('id:a')).toBeUndefined();
    expect(kept.get('id:b')).toBe('b');

    const later = kept.beginRead('id:a');
    kept.finishRead('id:a', later, { value: 'new', keptUntil: Date.now() + 60_000 });
    expect(kept.get('id:a')).toBe('new');
  });

  it('forget everything, reads under way included, and hold each answer only until its deadline', () => {
    const kept = new KeptAnswers<string>(10);
    const read = kept.beginRead('id:a');
    kept.finishRead('id:b', kept.beginRead('id:b'), { value: 'b', keptUntil: Date.now() + 60_000 });
    kept.forgetAll();
    kept.finishRead('id:a', read, { value: 'a', keptUntil: Date.now() + 60_000 });
    expect(kept.get('id:a')).toBeUndefined();
    expect(kept.get('id:b')).toBeUndefined();

    kept.finishRead('id:c', kept.beginRead('id:c'), { value: 'c', keptUntil: Date.now() - 1 });
    expect(kept.get('id:c')).toBeUndefined();
  });

  it('drop the oldest past their bound', () => {
    const kept = new KeptAnswers<number>(3);
    for (let i = 0; i < 4; i++)
      kept.finishRead(`id:${i}`, kept.beginRead(`id:${i}`), { value: i, keptUntil: Infinity });
    expect([0, 1, 2, 3].map((i) => kept.get(`id:${i}`))).toEqual([undefined, 1, 2, 3]);
  });
});
