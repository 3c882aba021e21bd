import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logContext } from '../server/log';
import { changesHeard } from '../server/transactions/answer-changes';
import { hashKey } from '../server/transactions/keys';
import { startTestApp, type TestApp } from './support/app';
import { USDC_ETH_TO_ARB } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';

const LIMIT = 200;

let t: TestApp;
beforeAll(async () => {
  // Kept answers need a catalog kept between requests; a limit a test can reach.
  t = await startTestApp({ CATALOG_CACHE_MS: '600000', RATE_LIMIT_TRANSACTIONS: String(LIMIT) });
});
afterAll(() => t?.stop());

async function swap(settled: boolean): Promise<string> {
  const id = (await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI')).transaction.id as string;
  if (settled) {
    const hash = `0x${randomHex()}`;
    await t.app.sql`update transactions set status = 'SUCCESS', finalized_at = now(), updated_at = now(),
      hash = ${hash}, hash_key = ${hashKey(hash)}, hash_verified_at = now() where id = ${id}`;
  }
  return id;
}

describe('a status answered at once', () => {
  it("is a settled swap's kept answer, sent without entering the request's log context, byte for byte the same", async () => {
    const settled = `/api/v1/transaction/status?transactionId=${await swap(true)}`;
    const pendingId = await swap(false);
    const pending = `/api/v1/transaction/status?transactionId=${pendingId}`;
    const first = await t.fetch(settled);
    const firstText = await first.text();
    // A client asking this fast is leased positions by the limiter, so it needs no Redis to count them.
    for (let i = 0; i < 20; i++) await (await t.fetch(settled)).arrayBuffer();

    const entered = vi.spyOn(logContext, 'run');
    try {
      for (let i = 0; i < 20; i++) {
        const kept = await t.fetch(settled);
        expect(kept.status).toBe(200);
        expect(await kept.text()).toBe(firstText);
        expect(kept.headers.get('x-request-id')).toMatch(/^req_/);
        expect(kept.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
        expect(kept.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
        expect(kept.headers.get('etag')).toBe(first.headers.get('etag'));
      }
      const revalidated = await t.fetch(settled, { headers: { 'if-none-match': first.headers.get('etag') as string } });
      expect(revalidated.status).toBe(304);
      expect(await revalidated.text()).toBe('');
      // At most a request that found the lease used up waited for Redis, inside the context.
      expect(entered.mock.calls.length).toBeLessThanOrEqual(2);

      // A swap that can still change is read inside the log context, then answered at once until the
      // database announces a change of it (a request that waited for the limiter's Redis enters it too).
      entered.mockClear();
      for (let i = 0; i < 5; i++) await (await t.fetch(pending)).arrayBuffer();
      expect(entered.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(entered.mock.calls.length).toBeLessThanOrEqual(2);
      await t.app.sql`update transactions set substatus = 'WAIT_DESTINATION_TRANSACTION' where id = ${pendingId}`;
      await changesHeard(t.app);
      entered.mockClear();
      const changed = await t.fetch(pending);
      expect((await changed.json()).data.transaction.substatus).toBe('WAIT_DESTINATION_TRANSACTION');
      expect(entered.mock.calls.length).toBeGreaterThanOrEqual(1);
    } finally {
      entered.mockRestore();
    }
  });

  it('is counted by the limiter exactly once: remaining counts down one by one, then 429', async () => {
    const path = `/api/v1/transaction/status?transactionId=${await swap(true)}`;
    const entered = vi.spyOn(logContext, 'run');
    const remaining: number[] = [];
    let refused: Response | undefined;
    try {
      // Earlier tests of this file share the client's window: count until the limit, wherever it started.
      for (let i = 0; i <= LIMIT && !refused; i++) {
        const res = await t.fetch(path);
        if (res.status === 429) refused = res;
        else {
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
        }
      }
      // The limiter leased positions to this fast client, so most of these were answered at once.
      expect(entered.mock.calls.length).toBeLessThan(remaining.length / 2);
    } finally {
      entered.mockRestore();
    }
    expect(remaining.length).toBeGreaterThan(LIMIT / 2);
    const start = remaining[0] as number;
    expect(remaining).toEqual(Array.from({ length: start + 1 }, (_, i) => start - i));
    if (!refused) throw new Error(`no 429 after ${remaining.length} requests`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await refused.json()).error.code).toBe('RATE_LIMITED');
  });
});
