import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OFFSET_ROWS } from '../server/transactions/history';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { WALLETS } from './support/fixtures';

/**
 * A history read is made slow honestly: another connection holds an ACCESS EXCLUSIVE lock on the
 * counter table a `query=` total reads, so such a read waits on the lock (as long as its statement
 * timeout or its cancellation lets it). Reads by `addresses=` and catalog reads never touch that table.
 */
let t: TestApp;
let locker: postgres.Sql;

beforeAll(async () => {
  t = await startTestApp({
    TRUST_PROXY: 'true',
    DATABASE_POOL_MAX: '10',
    // Long enough that the other client's reads finish under it on a loaded 2-core machine.
    REQUEST_DEADLINE_MS: '5000',
    READ_STATEMENT_TIMEOUT_MS: '60000',
    HISTORY_READS_PER_CLIENT: '3',
    HISTORY_READS_MAX: '6',
    HISTORY_READ_WAIT_MS: '500',
  });
  locker = postgres(t.app.config.databaseUrl, { max: 2, connection: { application_name: 'history-bounds-locker' } });
});
afterAll(async () => {
  await locker?.end({ timeout: 2 });
  await t?.stop();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const HOSTILE = '198.51.100.7';
const OTHER = '203.0.113.9';
const SLOW_PATH = '/api/v1/transaction/history?query=nothing-matches-this';

/** Runs `work` while the slow reads' table is locked; the lock is released whatever happens. */
async function whileLocked<T>(work: () => Promise<T>): Promise<T> {
  const held = await locker.reserve();
  try {
    await held`begin`;
    await held`lock table referral_swap_counts in access exclusive mode`;
    return await work();
  } finally {
    await held`rollback`.catch(() => {});
    held.release();
  }
}

/** The app's statements waiting on the locked table. */
const waitingOnLock = async (databaseName: string) =>
  locker<{ pid: number }[]>`
    select pid from pg_stat_activity
    where datname = ${databaseName} and application_name = 'switchyard' and state = 'active'
      and query ilike '%referral_swap_counts%'`;

/**
 * The app's connections still busy with something (a statement, an open transaction) once every
 * request has its answer. A cancellation reaches Postgres over a connection of its own, a few ms
 * after the answer: looked at for up to a second.
 */
async function leftRunning(databaseName: string) {
  let busy: { pid: number; state: string; query: string }[] = [];
  for (let i = 0; i < 50; i++) {
    busy = await locker`
      select pid, state, query from pg_stat_activity
      where datname = ${databaseName} and application_name = 'switchyard' and state <> 'idle'`;
    if (!busy.length) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return busy;
}

describe('public history reads cannot hold the database', () => {
  it('12 slow reads from one address: 3 run and are cancelled at the deadline, 9 get 429, another client is answered', async () => {
    await whileLocked(async () => {
      const hostile = Array.from({ length: 12 }, () => t.fetch(SLOW_PATH, from(HOSTILE)));
      const others = await Promise.all([
        t.fetch(`/api/v1/transaction/history?addresses=${WALLETS.evm}`, from(OTHER)),
        t.fetch(`/api/transaction/history?addresses=${WALLETS.evm}`, from(OTHER)),
        t.fetch('/api/v1/swap/chains', from(OTHER)),
      ]);
      expect(others.map((r) => r.status)).toEqual([200, 200, 200]);
      const answered = await Promise.all(hostile);
      const statuses = answered.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(3).fill(503), ...Array(9).fill(429)].sort());
      // Every hostile request has its answer: none of their statements may still be running.
      expect(await leftRunning(t.databaseName)).toEqual([]);
      // Cut at the request deadline: told when to come back, as every 503 of a busy or failing backend is.
      expect(answered.find((r) => r.status === 503)?.headers.get('retry-after')).toBe('2');
      const refused = answered.find((r) => r.status === 429);
      expect(refused?.headers.get('retry-after')).toBe('1');
      expect(refused?.headers.get('x-ratelimit-limit')).toBe('3');
      expect(refused?.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused?.headers.get('x-ratelimit-reset')).toBe('1');
      const body = await refused?.json();
      expect(body.error.code).toBe('RATE_LIMITED');
    });
  }, 40_000);

  it('a statement past READ_STATEMENT_TIMEOUT_MS answers 503 long before the request deadline', async () => {
    const sibling = await startSibling(t, { REQUEST_DEADLINE_MS: '60000', READ_STATEMENT_TIMEOUT_MS: '200' });
    try {
      await whileLocked(async () => {
        const res = await fetch(`${sibling.baseUrl}${SLOW_PATH}`, from(HOSTILE));
        expect(res.status).toBe(503);
        expect((await res.json()).error.message).toMatch(/took too long; narrow it/);
        expect(await leftRunning(t.databaseName)).toEqual([]);
      });
    } finally {
      await sibling.stop();
    }
  }, 20_000);

  it('a read that finds no place in time answers 503 at once instead of queueing behind slow ones', async () => {
    const sibling = await startSibling(t, {
      REQUEST_DEADLINE_MS: '60000',
      HISTORY_READS_MAX: '2',
      HISTORY_READ_WAIT_MS: '100',
    });
    const get = (address: string) => fetch(`${sibling.baseUrl}${SLOW_PATH}`, from(address));
    try {
      const slow = await whileLocked(async () => {
        const holding = [get('192.0.2.1'), get('192.0.2.2')];
        // Both places are taken once the locked statements show up waiting.
        for (let i = 0; i < 100 && (await waitingOnLock(t.databaseName)).length < 2; i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        const late = await get('192.0.2.3');
        expect(late.status).toBe(503);
        expect((await late.json()).error.message).toMatch(/busy/);
        return holding;
      });
      expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await sibling.stop();
    }
  }, 20_000);
});

describe('deep offset pages', () => {
  const deep = `page=${MAX_OFFSET_ROWS / 50 + 1}&perPage=50`;

  it('v1 refuses page × perPage past the cap with a 400 pointing to cursor', async () => {
    const res = await t.json(`/api/v1/transaction/history?${deep}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.field).toBe('page');
    expect(res.body.error.message).toMatch(/cursor/);
    const last = await t.json(`/api/v1/transaction/history?page=${MAX_OFFSET_ROWS / 50}&perPage=50`);
    expect(last.status).toBe(200);
  });

  it('the legacy history refuses it too, in its own envelope', async () => {
    const res = await t.json(`/api/transaction/history?${deep}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/cursor/) } });
  });
});

describe('a Postgres error from our own statement', () => {
  it('is a 500 in the usual envelope, with no detail of the statement, not a 400 blaming the client', async () => {
    // Our own bug stood in for: the counter table's column now fails its cast when history reads it.
    await t.app.sql.begin(async (tx) => {
      await tx`alter table swap_counts rename to swap_counts_kept`;
      await tx`create view swap_counts as select provider, src_asset_id, dst_asset_id, status, provider::bigint as swaps
               from swap_counts_kept`;
      await tx`insert into swap_counts_kept (provider, src_asset_id, dst_asset_id, status, swaps) values ('RELAY', 1, 2, 'SUCCESS', 1)`;
    });
    try {
      const res = await t.json('/api/v1/transaction/history', from(OTHER));
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({ code: 'INTERNAL_ERROR', message: 'Internal error' });
      expect(JSON.stringify(res.body)).not.toMatch(/bigint|invalid input|swap_counts|RELAY|at /);
    } finally {
      await t.app.sql.begin(async (tx) => {
        await tx`drop view swap_counts`;
        await tx`delete from swap_counts_kept where provider = 'RELAY' and src_asset_id = 1 and dst_asset_id = 2`;
        await tx`alter table swap_counts_kept rename to swap_counts`;
      });
    }
  });
});
