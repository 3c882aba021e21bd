import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { expectLegacyError, expectV1Error, expectV1Headers } from './support/assertions';
import { WALLETS } from './support/fixtures';
import { insertTransactions, type SyntheticTx } from './support/seed-transactions';

let t: TestApp;
let txs: SyntheticTx[];
const ALICE = WALLETS.evm;
const BOB = WALLETS.evm2;
const STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'REFUND'] as const;

beforeAll(async () => {
  t = await startTestApp();
  const base = Date.parse('2026-11-01T00:00:00Z');
  txs = await insertTransactions(
    t.app,
    Array.from({ length: 45 }, (_, i) => ({
      status: STATUSES[i % 4],
      wallet: i % 3 === 0 ? BOB : ALICE,
      recipient: i % 5 === 0 ? WALLETS.bitcoin : 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
      referralCode: i % 2 === 0 ? 'partner-a' : i % 7 === 0 ? 'partner-b' : null,
      createdAt: new Date(base + i * 60_000),
      outboundHash: i % 4 === 1 ? `0x${String(i).padStart(64, '0')}` : null,
    })),
  );
});
afterAll(() => t?.stop());

const newestFirst = (rows: SyntheticTx[]) => [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
const ids = (body: any) => body.data.map((x: any) => x.id);

describe('GET /api/v1/transaction/history', () => {
  it('lists newest first with default perPage 20, exact total and history-item fields', async () => {
    const res = await t.json('/api/v1/transaction/history');
    expect(res.status).toBe(200);
    expectV1Headers(res.headers);
    expect(res.body.pagination).toEqual({
      page: 1,
      perPage: 20,
      total: 45,
      hasMore: true,
      nextCursor: expect.any(String),
    });
    expect(ids(res.body)).toEqual(
      newestFirst(txs)
        .slice(0, 20)
        .map((x) => x.id),
    );
    const item = res.body.data[0];
    expect(item).not.toHaveProperty('updatedAt');
    expect(typeof item.amountUsd).toBe('number');
    for (const key of [
      'id',
      'hash',
      'inboundHash',
      'outboundHash',
      'provider',
      'status',
      'srcAmount',
      'dstAmount',
      'walletAddress',
      'recipientWalletAddress',
      'createdAt',
      'fee',
      'srcAsset',
      'dstAsset',
    ]) {
      expect(item, key).toHaveProperty(key);
    }
  });

  it('walks every page without overlap and ends with hasMore false', async () => {
    const seen: string[] = [];
    let last: any;
    for (let page = 1; page <= 10; page++) {
      last = (await t.json(`/api/v1/transaction/history?perPage=7&page=${page}`)).body;
      seen.push(...ids(last));
      if (!last.pagination.hasMore) break;
    }
    expect(seen).toEqual(newestFirst(txs).map((x) => x.id));
    expect(last.pagination).toMatchObject({ total: 45, hasMore: false });
  });

  it('filters by addresses, repeated or comma-separated, matching sender or recipient, EVM case-insensitively', async () => {
    const bob = txs.filter((x) => x.wallet === BOB);
    const lower = await t.json(`/api/v1/transaction/history?perPage=50&addresses=${BOB.toLowerCase()}`);
    expect(ids(lower.body).sort()).toEqual(bob.map((x) => x.id).sort());
    const recipient = txs.filter((x) => x.recipient === WALLETS.bitcoin);
    const both = txs.filter((x) => x.wallet === BOB || x.recipient === WALLETS.bitcoin);
    expect(
      ids((await t.json(`/api/v1/transaction/history?perPage=50&addresses=${WALLETS.bitcoin}`)).body).sort(),
    ).toEqual(recipient.map((x) => x.id).sort());
    const repeated = await t.json(
      `/api/v1/transaction/history?perPage=50&addresses=${BOB}&addresses=${WALLETS.bitcoin}`,
    );
    const comma = await t.json(`/api/v1/transaction/history?perPage=50&addresses=${BOB},${WALLETS.bitcoin}`);
    expect(ids(repeated.body).sort()).toEqual(both.map((x) => x.id).sort());
    expect(ids(comma.body)).toEqual(ids(repeated.body));
  });

  it('filters by statuses and finalizedOnly', async () => {
    const res = await t.json('/api/v1/transaction/history?perPage=50&statuses=SUCCESS,REFUND');
    expect(res.body.pagination.total).toBe(txs.filter((x) => x.status === 'SUCCESS' || x.status === 'REFUND').length);
    expect(new Set(res.body.data.map((x: any) => x.status))).toEqual(new Set(['SUCCESS', 'REFUND']));
    const repeated = await t.json('/api/v1/transaction/history?perPage=50&statuses=SUCCESS&statuses=REFUND');
    expect(ids(repeated.body)).toEqual(ids(res.body));
    const finalized = await t.json('/api/v1/transaction/history?perPage=50&finalizedOnly=true');
    expect(finalized.body.pagination.total).toBe(txs.filter((x) => x.status !== 'PENDING').length);
    expect(finalized.body.data.every((x: any) => x.status !== 'PENDING')).toBe(true);
    const notFinalized = await t.json('/api/v1/transaction/history?perPage=50&finalizedOnly=false');
    expect(notFinalized.body.pagination.total).toBe(45);
  });

  it('filters by referralCode, transactionId and query', async () => {
    const a = await t.json('/api/v1/transaction/history?perPage=50&referralCode=partner-a');
    expect(a.body.pagination.total).toBe(txs.filter((x) => x.referralCode === 'partner-a').length);
    const one = txs[10] as SyntheticTx;
    expect(ids((await t.json(`/api/v1/transaction/history?transactionId=${one.id}`)).body)).toEqual([one.id]);
    expect(
      ids((await t.json(`/api/v1/transaction/history?query=${one.hash?.toUpperCase().replace('0X', '0x')}`)).body),
    ).toEqual([one.id]);
    const withOutbound = txs.find((x) => x.outboundHash) as SyntheticTx;
    expect(ids((await t.json(`/api/v1/transaction/history?query=${withOutbound.outboundHash}`)).body)).toEqual([
      withOutbound.id,
    ]);
    const combined = await t.json(
      `/api/v1/transaction/history?perPage=50&referralCode=partner-a&statuses=PENDING&addresses=${ALICE}`,
    );
    const expected = txs.filter((x) => x.referralCode === 'partner-a' && x.status === 'PENDING' && x.wallet === ALICE);
    expect(ids(combined.body).sort()).toEqual(expected.map((x) => x.id).sort());
  });

  it.each([
    ['perPage=51', 'perPage'],
    ['perPage=0', 'perPage'],
    ['page=0', 'page'],
    ['statuses=DONE', 'statuses'],
    ['statuses=SUCCESS,nope', 'statuses'],
    ['finalizedOnly=yes', 'finalizedOnly'],
    [`addresses=${Array.from({ length: 21 }, (_, i) => `a${i}`).join(',')}`, 'addresses'],
    ['referralCode=bad%20code', 'referralCode'],
  ])('refuses %s with a 400 on %s', async (qs, field) => {
    expectV1Error(await t.json(`/api/v1/transaction/history?${qs}`), 400, 'VALIDATION_ERROR', field);
  });
});

describe('GET /api/transaction/history (legacy)', () => {
  it('answers {items, page, perPage, total} with search instead of query', async () => {
    const res = await t.json('/api/transaction/history?perPage=5');
    expect(Object.keys(res.body).sort()).toEqual(['items', 'page', 'perPage', 'total']);
    expect(res.body).toMatchObject({ page: 1, perPage: 5, total: 45 });
    for (const item of res.body.items)
      expect(item).toMatchObject({ id: expect.any(String), status: expect.any(String), provider: 'RELAY' });
    const one = txs[3] as SyntheticTx;
    expect((await t.json(`/api/transaction/history?search=${one.hash}`)).body.items.map((x: any) => x.id)).toEqual([
      one.id,
    ]);
  });

  it('has no referralCode or transactionId filter and caps perPage at 50', async () => {
    const res = await t.json('/api/transaction/history?referralCode=partner-a&perPage=50');
    expect(res.body.total).toBe(45);
    expectLegacyError(await t.json('/api/transaction/history?perPage=51'), 400, 'VALIDATION_ERROR');
    expectLegacyError(await t.json('/api/transaction/history?statuses=bogus'), 400, 'VALIDATION_ERROR');
  });
});

describe('HISTORY_REQUIRE_SCOPE', () => {
  let scoped: Awaited<ReturnType<typeof startSibling>>;
  beforeAll(async () => {
    scoped = await startSibling(t, { HISTORY_REQUIRE_SCOPE: 'true' });
  });
  afterAll(() => scoped?.stop());

  const get = async (path: string) => {
    const res = await fetch(`${scoped.baseUrl}${path}`);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  it('refuses an unscoped v1 history, or one scoped only by referralCode, naming both fields', async () => {
    for (const path of [
      '/api/v1/transaction/history',
      '/api/v1/transaction/history?referralCode=partner-a',
      '/api/v1/transaction/history?statuses=SUCCESS&query=ETH',
    ]) {
      const res = await get(path);
      expectV1Error(res, 400, 'VALIDATION_ERROR', 'addresses');
      expect(res.body.error.details.errors.map((e: any) => e.field)).toEqual(['addresses', 'transactionId']);
      expect(JSON.stringify(res.body)).not.toContain(ALICE);
    }
  });

  it('refuses an unscoped legacy history, naming addresses', async () => {
    const res = await get('/api/transaction/history?search=ETH');
    expectLegacyError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.message).toMatch(/addresses/);
  });

  it('answers a history scoped by addresses or transactionId', async () => {
    const byWallet = await get(`/api/v1/transaction/history?addresses=${BOB}`);
    expect(byWallet.status).toBe(200);
    expect(byWallet.body.pagination.total).toBe(txs.filter((x) => x.wallet === BOB).length);
    const target = txs[3] as SyntheticTx;
    const byId = await get(`/api/v1/transaction/history?transactionId=${target.id}`);
    expect(byId.status).toBe(200);
    expect(ids(byId.body)).toEqual([target.id]);
    const legacy = await get(`/api/transaction/history?addresses=${BOB}`);
    expect(legacy.status).toBe(200);
    expect(legacy.body.total).toBe(byWallet.body.pagination.total);
  });

  it('is off by default: the spec lists every filter as optional', async () => {
    expect((await t.json('/api/v1/transaction/history?referralCode=partner-a')).status).toBe(200);
    expect((await t.json('/api/transaction/history')).status).toBe(200);
  });
});

describe('history pages deep and by cursor', () => {
  const wallet = (w: string) => `/api/v1/transaction/history?addresses=${w}`;
  const expected = () => newestFirst(txs.filter((x) => x.wallet === ALICE)).map((x) => x.id);

  async function walkPages(perPage: number) {
    const seen: string[] = [];
    for (let page = 1; page < 50; page++) {
      const res = await t.json(`${wallet(ALICE)}&perPage=${perPage}&page=${page}`);
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      if (!res.body.pagination.hasMore) return { seen, last: res.body.pagination };
    }
    throw new Error('never reached the last page');
  }

  it('returns every page of a wallet in order, the older half read from the oldest end', async () => {
    for (const perPage of [1, 4, 7, 29, 50]) {
      const { seen, last } = await walkPages(perPage);
      expect(seen, `perPage ${perPage}`).toEqual(expected());
      expect(last.nextCursor).toBeNull();
    }
    const past = await t.json(`${wallet(ALICE)}&perPage=10&page=40`);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toMatchObject({ total: expected().length, hasMore: false, nextCursor: null });
  });

  it('walks the same rows by cursor, with the total on every page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const res: { status: number; body: any } = await t.json(
        `${wallet(ALICE)}&perPage=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(expected().length);
      seen.push(...ids(res.body));
      cursor = res.body.pagination.nextCursor;
      expect(cursor === null).toBe(!res.body.pagination.hasMore);
      if (!cursor) break;
    }
    expect(seen).toEqual(expected());
  });

  it('continues after the cursor’s row even when newer swaps arrive meanwhile', async () => {
    const first = await t.json(`${wallet(BOB)}&perPage=3`);
    const [newer] = await insertTransactions(t.app, [
      { status: 'PENDING', wallet: BOB, recipient: WALLETS.bitcoin, createdAt: new Date() },
    ]);
    const next = await t.json(`${wallet(BOB)}&perPage=3&cursor=${first.body.pagination.nextCursor}`);
    const bobs = newestFirst(txs.filter((x) => x.wallet === BOB)).map((x) => x.id);
    expect(ids(next.body)).toEqual(bobs.slice(3, 6));
    expect(ids(next.body)).not.toContain(newer?.id);
  });

  it('refuses a cursor it did not issue, naming the field', async () => {
    for (const bad of ['%%%', Buffer.from('no separator').toString('base64url'), 'x'.repeat(300)]) {
      const res = await t.json(`${wallet(ALICE)}&cursor=${encodeURIComponent(bad)}`);
      expectV1Error(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.field).toBe('cursor');
    }
  });
});
