import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../server/context';
import { AppError } from '../server/errors';
import { newLockId } from '../server/ids';
import { executeLock } from '../server/routing/execute';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';
import { countingContext, countRedisWrites } from './support/round-trips';

let t: TestApp;
let counted: { ctx: AppContext; statements: string[]; close(): Promise<void> };

beforeAll(async () => {
  // The catalog is read once per process in production; the tests' default re-reads it on every use.
  t = await startTestApp({ CATALOG_CACHE_MS: '600000', LOCK_TTL_MS: '60000' });
  counted = countingContext(t.app);
});
afterAll(async () => {
  await counted?.close();
  await t?.stop();
});

async function lockId() {
  const res = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.lockId as string;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof AppError ? error.code : error),
  );

describe('an execute', () => {
  it('that wins costs the claim and one recording statement, and one Redis command for each follow-up', async () => {
    // Warm-up: the first execute of a process loads BullMQ's scripts into Redis.
    await executeLock(counted.ctx, { lockId: await lockId() });
    const id = await lockId();
    const redis = countRedisWrites(counted.ctx.redis);
    const upstream = countRedisWrites(counted.ctx.providers.redis as NonNullable<typeof counted.ctx.providers.redis>);
    counted.statements.length = 0;
    const result = await executeLock(counted.ctx, { lockId: id });
    expect(result.transaction.status).toBe('PENDING');
    expect(counted.statements, counted.statements.join('\n')).toHaveLength(2);
    expect(counted.statements[0]).toMatch(/^with "claimed" as \(update "locks"/i);
    expect(counted.statements[1]).toMatch(/^with used as/i);
    // The provider's shared upstream budget (on the upstream connection), then the published change, the
    // webhook fan-out and the tracking job: no lookup before adding the new job.
    expect(upstream.writes).toBe(1);
    expect(redis.writes).toBe(3);

    const [tx] = await t.app.sql`select status, next_poll_at from transactions where id = ${result.transaction.id}`;
    expect(tx?.status).toBe('PENDING');
    const [lock] = await t.app.sql`select state, transaction_id from locks where id = ${id}`;
    expect(lock).toMatchObject({ state: 'used', transaction_id: result.transaction.id });
  });

  it('that loses costs one statement and nothing else', async () => {
    const id = await lockId();
    await executeLock(counted.ctx, { lockId: id });
    const redis = countRedisWrites(counted.ctx.redis);
    const upstream = countRedisWrites(counted.ctx.providers.redis as NonNullable<typeof counted.ctx.providers.redis>);
    counted.statements.length = 0;
    expect(await failure(executeLock(counted.ctx, { lockId: id }))).toBe('QUOTE_EXPIRED');
    expect(counted.statements).toHaveLength(1);
    expect(redis.writes + upstream.writes).toBe(0);

    counted.statements.length = 0;
    expect(await failure(executeLock(counted.ctx, { lockId: newLockId() }))).toBe('NOT_FOUND');
    expect(counted.statements).toHaveLength(1);
  });

  it('that races a claim this process is asking for shares it: one claim and one recording for 20 callers', async () => {
    const id = await lockId();
    counted.statements.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => failure(executeLock(counted.ctx, { lockId: id }))),
    );
    expect(answers.filter((a) => a === undefined)).toHaveLength(1);
    expect(answers.filter((a) => a === 'QUOTE_EXPIRED')).toHaveLength(19);
    expect(counted.statements, counted.statements.join('\n')).toHaveLength(2);
    const [row] = await t.app.sql`select count(*)::int as n from transactions where lock_id = ${id}`;
    expect(row?.n).toBe(1);
  });

  it('of a lock this process holds while its provider answers loses without a statement', async () => {
    const id = await lockId();
    // Relay's execute is a fresh quote carrying the steps to sign.
    t.sims.RELAY.configure({ faults: { quote: 'slow' }, slowMs: 400 });
    try {
      const asked = () => t.sims.RELAY.log.filter((e) => e.kind === 'quote').length;
      const askedBefore = asked();
      counted.statements.length = 0;
      const winning = executeLock(counted.ctx, { lockId: id });
      for (let i = 0; i < 200 && asked() === askedBefore; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const claimed = counted.statements.length;
      expect(counted.statements.at(-1)).toMatch(/^with "claimed" as \(update "locks"/i);
      expect(await failure(executeLock(counted.ctx, { lockId: id }))).toBe('QUOTE_EXPIRED');
      expect(counted.statements.slice(claimed)).toEqual([]);
      expect((await winning).transaction.status).toBe('PENDING');
    } finally {
      t.sims.RELAY.configure({ faults: { quote: 'none' } });
    }
  });

  it('shares a claim that found no lock, but asks again after one lost to another process', async () => {
    counted.statements.length = 0;
    const missing = newLockId();
    const [first, second] = await Promise.all([
      failure(executeLock(counted.ctx, { lockId: missing })),
      failure(executeLock(counted.ctx, { lockId: missing })),
    ]);
    expect([first, second]).toEqual(['NOT_FOUND', 'NOT_FOUND']);
    expect(counted.statements).toHaveLength(1);

    // Another process holds the claim: it may hand the lock back, so each caller here asks the database.
    const id = await lockId();
    await t.app.sql`update locks set state = 'executing', claimed_at = now() where id = ${id}`;
    counted.statements.length = 0;
    const held = await Promise.all([
      failure(executeLock(counted.ctx, { lockId: id })),
      failure(executeLock(counted.ctx, { lockId: id })),
    ]);
    expect(held).toEqual(['QUOTE_EXPIRED', 'QUOTE_EXPIRED']);
    expect(counted.statements).toHaveLength(2);
  });

  it('of an expired lock loses without claiming it', async () => {
    const id = await lockId();
    await t.app.sql`update locks set expires_at = now() - interval '1 second' where id = ${id}`;
    expect(await failure(executeLock(counted.ctx, { lockId: id }))).toBe('QUOTE_EXPIRED');
    const [lock] = await t.app.sql`select state from locks where id = ${id}`;
    expect(lock?.state).toBe('locked');
  });
});
