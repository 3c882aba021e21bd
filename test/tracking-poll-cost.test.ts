import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../server/context';
import { pollTransaction } from '../server/tracking/poll';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';
import { countingContext } from './support/round-trips';

let t: TestApp;
let counted: { ctx: AppContext; statements: string[]; close(): Promise<void> };

beforeAll(async () => {
  // The catalog is read once per process in production; the tests' default re-reads it on every use.
  t = await startTestApp({ CATALOG_CACHE_MS: '600000' });
  counted = countingContext(t.app);
});
afterAll(async () => {
  await counted?.close();
  await t?.stop();
});

const row = async (id: string) => {
  const [tx] = await t.app.sql<{ poll_attempts: number; next_poll_at: string | null; last_upstream_state: string }[]>`
    select poll_attempts, next_poll_at, last_upstream_state from transactions where id = ${id}`;
  const [events] = await t.app.sql<{ n: number }[]>`
    select count(*)::int as n from transaction_events where transaction_id = ${id}`;
  return { ...tx, events: events?.n };
};

describe('a tracking poll', () => {
  it('that learns nothing new costs one read and one write, and still counts the poll and sets the next', async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 1_000_000_000 });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    const first = await pollTransaction(counted.ctx, transaction.id);
    expect(first.keepTracking).toBe(true);
    const learnt = await row(transaction.id);
    const statusPath = `/api/v1/transaction/status?transactionId=${transaction.id}`;
    const before = await t.fetch(statusPath);
    const beforeText = await before.text();

    counted.statements.length = 0;
    const quiet = await pollTransaction(counted.ctx, transaction.id);
    expect(counted.statements, counted.statements.join('\n')).toHaveLength(2);
    expect(counted.statements[0]).toMatch(/^select/i);
    expect(counted.statements[1]).toMatch(/^update/i);
    expect(quiet).toMatchObject({ keepTracking: true, status: 'PENDING' });

    const after = await row(transaction.id);
    expect(after.poll_attempts).toBe(Number(learnt.poll_attempts) + 1);
    expect(after.events).toBe(learnt.events);
    expect(after.last_upstream_state).toBe(learnt.last_upstream_state);
    expect(new Date(after.next_poll_at as string).getTime()).toBeGreaterThan(Date.now() - 1000);

    // Nothing a client can see changed: the same status bytes and ETag, so a wallet's poll gets 304.
    const etag = before.headers.get('etag') as string;
    const again = await t.fetch(statusPath);
    expect(await again.text()).toBe(beforeText);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await t.fetch(statusPath, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('that learns something takes the locked path and records it', async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 0, outcome: 'success' });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    const outcome = await pollTransaction(counted.ctx, transaction.id);
    expect(outcome.status).toBe('SUCCESS');
    const after = await row(transaction.id);
    expect(after.next_poll_at).toBeNull();
    const [changed] = await t.app.sql`select to_status from transaction_events
      where transaction_id = ${transaction.id} and type = 'status_changed'`;
    expect(changed?.to_status).toBe('SUCCESS');
  });
});
