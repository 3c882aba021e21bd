import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleApiRequest } from '../server/http/routes';
import type { StatusQuery } from '../server/schemas/transactions';
import { changesHeard } from '../server/transactions/answer-changes';
import { hashKey } from '../server/transactions/keys';
import { findTransaction } from '../server/transactions/lookup';
import { getTransactionStatus, presentStatus, SETTLED_BY_HASH_MAX_AGE_S } from '../server/transactions/status';
import { startTestApp, type TestApp } from './support/app';
import { USDC_ETH_TO_ARB } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';
import { countingContext } from './support/round-trips';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

/**
 * The status endpoint through both servers: the lean node:http server, and the Fetch-API entry
 * Next's route files call (`handleApiRequest`), with the same conditional-request rules.
 */
const SERVERS = {
  lean: async (path: string, headers: Record<string, string> = {}) => {
    const res = await t.fetch(path, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  },
  next: async (path: string, headers: Record<string, string> = {}) => {
    const res = await handleApiRequest(t.app, new Request(`http://localhost${path}`, { headers }));
    return { status: res.status, headers: res.headers, text: await res.text() };
  },
};

async function pendingSwap(): Promise<string> {
  const executed = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
  return executed.transaction.id;
}

async function settle(id: string, status: 'SUCCESS' | 'FAILED', finalizedAt = new Date()) {
  const hash = `0x${randomHex()}`;
  await t.app
    .sql`update transactions set status = ${status}, finalized_at = ${finalizedAt.toISOString()}, updated_at = now(),
    hash = ${hash}, hash_key = ${hashKey(hash)}, hash_verified_at = now() where id = ${id}`;
  await changesHeard(t.app);
}

describe.each(Object.entries(SERVERS))('status caching, %s', (_name, get) => {
  it('tags a pending transaction, revalidates it on every use, and answers 304 while it is unchanged', async () => {
    const id = await pendingSwap();
    const path = `/api/v1/transaction/status?transactionId=${id}`;
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');

    const again = await get(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await get(path, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    expect((await get(path, { 'if-none-match': '"something-else"' })).status).toBe(200);

    // A write that leaves the answer as it was (a tracking poll that learnt nothing) keeps the validator.
    await t.app.sql`update transactions set poll_attempts = poll_attempts + 1, next_poll_at = now() where id = ${id}`;
    const polled = await get(path, { 'if-none-match': etag });
    expect(polled.status).toBe(304);
    expect(polled.headers.get('etag')).toBe(etag);

    // Anything in the answer that changes makes a new validator and a new body.
    await t.app.sql`update transactions set substatus = 'WAIT_DESTINATION_TRANSACTION' where id = ${id}`;
    await changesHeard(t.app);
    const changed = await get(path, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(JSON.parse(changed.text).data.transaction.substatus).toBe('WAIT_DESTINATION_TRANSACTION');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('lets shared caches keep a settled transaction by id for good, and by hash briefly', async () => {
    const id = await pendingSwap();
    await settle(id, 'SUCCESS');
    const byId = await get(`/api/v1/transaction/status?transactionId=${id}`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const hash = JSON.parse(byId.text).data.transaction.hash;
    const byHash = await get(`/api/v1/transaction/status?hash=${hash}`);
    expect(byHash.headers.get('cache-control')).toBe('public, max-age=300');
    expect(byHash.headers.get('etag')).toBe(byId.headers.get('etag'));
  });

  it('keeps revalidating a failed transaction while a refund may still follow', async () => {
    const recent = await pendingSwap();
    await settle(recent, 'FAILED');
    const res = await get(`/api/v1/transaction/status?transactionId=${recent}`);
    expect(res.headers.get('cache-control')).toBe('no-cache');

    const old = await pendingSwap();
    await settle(old, 'FAILED', new Date(Date.now() - t.app.config.worker.refundWatchMs - 60_000));
    const settled = await get(`/api/v1/transaction/status?transactionId=${old}`);
    expect(settled.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('never caches errors', async () => {
    const missing = await get('/api/v1/transaction/status?transactionId=tx_doesnotexist', { 'if-none-match': '*' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(missing.headers.get('etag')).toBeNull();
  });
});

describe('the status read', () => {
  it('is one statement that leaves the large JSON columns unread, and answers what the whole row would', async () => {
    const id = await pendingSwap();
    const [{ hash } = { hash: '' }] = await t.app.sql<{ hash: string }[]>`
      update transactions set hash = ${`0x${randomHex()}`}, hash_key = null where id = ${id} returning hash`;
    await t.app.sql`update transactions set hash_key = ${hashKey(hash)} where id = ${id}`;
    const counted = countingContext(t.app);
    try {
      for (const query of [{ transactionId: id }, { hash }]) {
        counted.statements.length = 0;
        const status = await getTransactionStatus(counted.ctx, query);
        // The catalog is re-read on every use in tests (CATALOG_CACHE_MS); only the transaction reads count here.
        const reads = counted.statements.filter((s) => s.includes('from "transactions"'));
        expect(reads, reads.join('\n')).toHaveLength(1);
        expect(reads[0]).not.toMatch(/"quote"|"provider_result"|"execution"/);
        const whole = await findTransaction(t.app, query);
        expect(status.data).toEqual(await presentStatus(t.app, whole));
        expect(status.etag).toBe((await getTransactionStatus(t.app, { transactionId: whole.id })).etag);
      }
    } finally {
      await counted.close();
    }
  });
});

describe('status answers made once per row version', () => {
  let cached: TestApp;
  beforeAll(async () => {
    cached = await startTestApp({ CATALOG_CACHE_MS: '1500' });
  });
  afterAll(() => cached?.stop());

  it('serves an unchanged row the same answer, and a changed row or catalog a new one', async () => {
    const { transaction } = await executeSwap(cached, USDC_ETH_TO_ARB, 'LIFI');
    const query = { transactionId: transaction.id };
    const nextSnapshot = () => new Promise((resolve) => setTimeout(resolve, 1600));
    // A fresh catalog snapshot now, so the calls below all see the same one.
    await nextSnapshot();
    const first = await getTransactionStatus(cached.app, query);
    const again = await getTransactionStatus(cached.app, query);
    expect(again.data).toBe(first.data);
    expect(JSON.parse(again.body)).toEqual({ data: first.data });
    const served = await cached.fetch(`/api/v1/transaction/status?transactionId=${transaction.id}`);
    expect(await served.text()).toBe(first.body);
    expect(served.headers.get('etag')).toBe(first.etag);

    await cached.app
      .sql`update transactions set substatus = 'WAIT_DESTINATION_TRANSACTION', hash = ${`0x${randomHex()}`}
      where id = ${transaction.id}`;
    await changesHeard(cached.app);
    const changed = await getTransactionStatus(cached.app, query);
    expect(changed.etag).not.toBe(first.etag);
    expect(changed.data.transaction.substatus).toBe('WAIT_DESTINATION_TRANSACTION');
    expect(JSON.parse(changed.body)).toEqual({ data: changed.data });

    // A snapshot reloaded with the same explorer links keeps the answers made so far.
    await nextSnapshot();
    expect((await getTransactionStatus(cached.app, query)).data).toBe(changed.data);

    // The explorer links come from the catalog: a new snapshot makes a new answer, and a new validator, for the same row version.
    const chain = first.data.transaction.srcAsset.chain;
    await cached.app.sql`update chains set explorer_tx_url = 'https://explorer.test/tx/{hash}' where key = ${chain}`;
    await nextSnapshot();
    const relinked = await getTransactionStatus(cached.app, query);
    expect(relinked.etag).not.toBe(changed.etag);
    expect(relinked.data.transaction.explorerUrls.inbound).toMatch(/^https:\/\/explorer\.test\/tx\//);
  });

  it('keeps settled answers through a reload that leaves the explorer links as they were, without reading the rows again', async () => {
    const settledIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { transaction } = await executeSwap(cached, USDC_ETH_TO_ARB, 'LIFI');
      await cached.app
        .sql`update transactions set status = 'SUCCESS', finalized_at = now() where id = ${transaction.id}`;
      settledIds.push(transaction.id);
    }
    const [first, second] = settledIds.map((transactionId) => ({ transactionId })) as [StatusQuery, StatusQuery];
    const counted = countingContext(cached.app);
    const reads = () => counted.statements.filter((s) => s.includes('from "transactions"')).length;
    const readsFor = async (query: StatusQuery) => {
      const before = reads();
      await getTransactionStatus(counted.ctx, query);
      return reads() - before;
    };
    try {
      for (const query of [first, second]) await readsFor(query);
      expect(await readsFor(second)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      // The first request after the snapshot went stale reads its row while the catalog reloads ...
      expect(await readsFor(first)).toBe(1);
      // ... and the other settled answer is still kept under the reloaded snapshot.
      expect(await readsFor(second)).toBe(0);
    } finally {
      await counted.close();
    }
  });
});

describe('settled answers kept by lookup', () => {
  let kept: TestApp;
  beforeAll(async () => {
    // A catalog snapshot that outlives the by-hash bound, so only that bound can end a kept answer.
    kept = await startTestApp({ CATALOG_CACHE_MS: String((SETTLED_BY_HASH_MAX_AGE_S + 300) * 1000) });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await kept?.stop();
  });

  async function swapWithStatus(status: 'SUCCESS' | 'PENDING') {
    const { transaction } = await executeSwap(kept, USDC_ETH_TO_ARB, 'LIFI');
    const hash = `0x${randomHex()}`;
    await kept.app.sql`update transactions set status = ${status}, hash = ${hash}, hash_key = ${hashKey(hash)},
      hash_verified_at = now(), finalized_at = ${status === 'PENDING' ? null : new Date().toISOString()}
      where id = ${transaction.id}`;
    return { id: transaction.id, hash };
  }

  it('answers a settled transaction again without reading it, by hash only for as long as shared caches may', async () => {
    const settled = await swapWithStatus('SUCCESS');
    const pending = await swapWithStatus('PENDING');
    const counted = countingContext(kept.app);
    const reads = () => counted.statements.filter((s) => s.includes('from "transactions"')).length;
    const read = async (query: StatusQuery) => {
      const before = reads();
      const status = await getTransactionStatus(counted.ctx, query);
      return { status, reads: reads() - before };
    };
    try {
      for (const query of [{ transactionId: settled.id }, { hash: settled.hash }]) {
        const first = await read(query);
        expect(first.reads).toBe(1);
        expect(first.status.settled).toBe(true);
        const again = await read(query);
        expect(again.reads).toBe(0);
        expect(again.status).toBe(first.status);
      }
      // The same hash written another way is the same lookup.
      expect((await read({ hash: settled.hash.toUpperCase().replace('0X', '') })).reads).toBe(0);
      // One that can still change is kept too, once this process hears changes, until it hears one of it.
      await changesHeard(counted.ctx);
      for (const query of [{ transactionId: pending.id }, { hash: pending.hash }]) {
        await read(query);
        expect((await read(query)).reads).toBe(0);
      }
      await kept.app.sql`update transactions set substatus = 'WAIT_DESTINATION_TRANSACTION' where id = ${pending.id}`;
      await changesHeard(counted.ctx);
      for (const query of [{ transactionId: pending.id }, { hash: pending.hash }]) {
        const changed = await read(query);
        expect(changed.reads).toBe(1);
        expect(changed.status.data.transaction.substatus).toBe('WAIT_DESTINATION_TRANSACTION');
      }

      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SETTLED_BY_HASH_MAX_AGE_S * 1000 + 1000 });
      expect((await read({ transactionId: settled.id })).reads).toBe(0);
      expect((await read({ hash: settled.hash })).reads).toBe(1);
      expect((await read({ hash: settled.hash })).reads).toBe(0);
      // ... and not beyond its bound, heard of or not.
      expect((await read({ transactionId: pending.id })).reads).toBe(1);
    } finally {
      vi.useRealTimers();
      await counted.close();
    }
  });

  it('serves a kept answer through both servers as the same bytes, headers and 304', async () => {
    const settled = await swapWithStatus('SUCCESS');
    for (const path of [
      `/api/v1/transaction/status?transactionId=${settled.id}`,
      `/api/v1/transaction/status?hash=${settled.hash}`,
    ]) {
      const answers = [];
      // The first read makes the answer; the later ones are served from it, without I/O, by each server.
      for (const server of ['lean', 'next', 'lean', 'next'] as const) {
        const res =
          server === 'lean'
            ? await kept.fetch(path)
            : await handleApiRequest(kept.app, new Request(`http://localhost${path}`));
        answers.push({ status: res.status, text: await res.text(), etag: res.headers.get('etag'), res });
      }
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.text).toBe(answers[0]?.text);
        expect(answer.etag).toBe(answers[0]?.etag);
        expect(answer.res.headers.get('cache-control')).toBe(answers[0]?.res.headers.get('cache-control'));
        expect(answer.res.headers.get('x-request-id')).toMatch(/^req_/);
        expect(answer.res.headers.get('x-ratelimit-limit')).toBe(answers[0]?.res.headers.get('x-ratelimit-limit'));
      }
      const etag = answers[0]?.etag as string;
      const lean = await kept.fetch(path, { headers: { 'if-none-match': etag } });
      const next = await handleApiRequest(
        kept.app,
        new Request(`http://localhost${path}`, { headers: { 'if-none-match': etag } }),
      );
      for (const revalidated of [lean, next]) {
        expect(revalidated.status).toBe(304);
        expect(await revalidated.text()).toBe('');
      }
    }
  });
});
