import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletLookupKeys } from '../server/catalog/addresses';
import { foldSwapDeltas } from '../server/rollups/swaps';
import { hashKey } from '../server/transactions/keys';
import { startTestApp, type TestApp } from './support/app';
import { WALLETS } from './support/fixtures';
import { insertTransactions, type SyntheticTx } from './support/seed-transactions';

/**
 * The public history's `total` comes from counters kept with the rows, its pages from merged index
 * scans: for every filter and combination, both must be exactly what a brute-force reading of the
 * table gives, with some changes folded into the counters and some still deltas.
 */

let t: TestApp;
let txs: SyntheticTx[];
const PROVIDERS = ['RELAY', 'THORCHAIN', 'LIFI', 'CHAINFLIP'];
const STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'REFUND'] as const;
const ALICE = WALLETS.evm;
const BOB = WALLETS.evm2;

interface Row {
  id: string;
  lock_id: string;
  status: string;
  provider: string;
  src_asset_id: number | null;
  dst_asset_id: number | null;
  referral_code: string | null;
  wallet_key: string;
  recipient_wallet_key: string;
  hash_key: string | null;
  inbound_hash_key: string | null;
  outbound_hash_key: string | null;
  created_at: string;
}

let symbols: Map<number, string>;

async function asset(chain: string, symbol: string) {
  const [row] = await t.app.sql<
    { id: number }[]
  >`select id from assets where chain_key = ${chain} and symbol = ${symbol}`;
  if (!row) throw new Error(`no ${symbol} on ${chain} in the catalog`);
  return { id: row.id, symbol, chain };
}

beforeAll(async () => {
  t = await startTestApp();
  const pairs = [
    [await asset('ethereum', 'ETH'), await asset('bitcoin', 'BTC')],
    [await asset('ethereum', 'USDC'), await asset('arbitrum', 'USDC')],
    [await asset('solana', 'SOL'), await asset('ethereum', 'WETH')],
    [await asset('bitcoin', 'BTC'), await asset('solana', 'SOL')],
    [await asset('arbitrum', 'ETH'), await asset('ethereum', 'USDT')],
  ] as const;
  const codes = ['alpha', 'relay', 'usdc', null, null, 'Alpha'];
  const base = Date.parse('2026-10-01T00:00:00Z');
  // Alice also pays herself, Bob is paid as well as paying, and Solana's wallet pays itself under its two keys.
  const senderOf = (i: number) =>
    i % 13 === 6 ? WALLETS.solana : i % 3 === 0 ? ALICE : i % 3 === 1 ? BOB : `0x${String(i).padStart(40, '0')}`;
  const recipientOf = (i: number) =>
    i % 13 === 6
      ? WALLETS.solana
      : i % 9 === 3
        ? ALICE
        : i % 9 === 5
          ? BOB
          : i % 5 === 0
            ? WALLETS.bitcoin
            : WALLETS.solana;
  const make = (i: number) => {
    const [src, dst] = pairs[i % pairs.length] as (typeof pairs)[number];
    const recipient = recipientOf(i);
    return {
      status: STATUSES[(i * 7) % 4],
      provider: PROVIDERS[i % 4],
      wallet: senderOf(i),
      recipient,
      recipientKey: recipient.startsWith('0x') ? recipient.toLowerCase() : recipient,
      referralCode: codes[(i * 7 + (i >> 2)) % codes.length],
      createdAt: new Date(base + i * 60_000),
      outboundHash: i % 4 === 1 ? `0x${String(i).padStart(64, 'a')}` : null,
      srcAsset: src,
      dstAsset: dst,
    };
  };
  txs = await insertTransactions(
    t.app,
    Array.from({ length: 90 }, (_, i) => make(i)),
  );
  await foldSwapDeltas(t.app);
  // After the fold: status changes, a code that spells another swap's id, and new swaps, all still deltas.
  const first = txs[0] as SyntheticTx;
  await t.app
    .sql`update transactions set status = 'REFUND' where id = any(${t.app.sql.array(txs.filter((_, i) => i % 9 === 2).map((x) => x.id))})`;
  await t.app
    .sql`update transactions set referral_code = ${first.id} where id = any(${t.app.sql.array(txs.filter((_, i) => i % 10 === 7 || i === 0).map((x) => x.id))})`;
  // A code that spells the wallet most swaps pay out to: its total cannot come from the pair counters alone.
  await t.app
    .sql`update transactions set referral_code = ${WALLETS.solana} where id = any(${t.app.sql.array(txs.filter((_, i) => i % 30 === 13).map((x) => x.id))})`;
  txs.push(
    ...(await insertTransactions(
      t.app,
      Array.from({ length: 20 }, (_, i) => make(90 + i)),
    )),
  );
  await t.app.sql`delete from transactions where id = ${(txs[5] as SyntheticTx).id}`;
  const catalog = await t.app.sql<{ id: number; symbol: string }[]>`select id, symbol from assets`;
  symbols = new Map(catalog.map((a) => [a.id, a.symbol]));
});
afterAll(() => t?.stop());

async function rows(): Promise<Row[]> {
  return t.app.sql<Row[]>`
    select id, lock_id, status, provider, src_asset_id, dst_asset_id, referral_code, wallet_key, recipient_wallet_key,
           hash_key, inbound_hash_key, outbound_hash_key, created_at::text from transactions`;
}

interface Filter {
  statuses?: string[];
  finalizedOnly?: boolean;
  referralCode?: string;
  transactionId?: string;
  addresses?: string[];
  query?: string;
}

/** The filter's meaning, read row by row. */
function matches(r: Row, f: Filter): boolean {
  if (f.statuses && !f.statuses.includes(r.status)) return false;
  if (f.finalizedOnly && r.status === 'PENDING') return false;
  if (f.referralCode !== undefined && r.referral_code !== f.referralCode) return false;
  if (f.transactionId !== undefined && r.id !== f.transactionId) return false;
  if (f.addresses) {
    const keys = f.addresses.flatMap(walletLookupKeys);
    if (!keys.includes(r.wallet_key) && !keys.includes(r.recipient_wallet_key)) return false;
  }
  if (f.query !== undefined) {
    const q = f.query.trim();
    const key = hashKey(q);
    const symbolHas = (id: number | null) =>
      id !== null && (symbols.get(id) ?? '').toLowerCase().includes(q.toLowerCase());
    const named =
      r.id === q ||
      r.lock_id === q ||
      [r.hash_key, r.inbound_hash_key, r.outbound_hash_key].includes(key) ||
      walletLookupKeys(q).some((k) => k === r.wallet_key || k === r.recipient_wallet_key) ||
      r.provider === q.toUpperCase() ||
      symbolHas(r.src_asset_id) ||
      symbolHas(r.dst_asset_id) ||
      r.referral_code === q;
    if (!named) return false;
  }
  return true;
}

const newestFirst = (a: Row, b: Row) =>
  Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const query = (f: Filter, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams(extra);
  if (f.statuses) params.set('statuses', f.statuses.join(','));
  if (f.finalizedOnly) params.set('finalizedOnly', 'true');
  if (f.referralCode !== undefined) params.set('referralCode', f.referralCode);
  if (f.transactionId !== undefined) params.set('transactionId', f.transactionId);
  if (f.addresses) params.set('addresses', f.addresses.join(','));
  if (f.query !== undefined) params.set('query', f.query);
  return params.toString();
};

async function everyPage(f: Filter, perPage: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; page < 100; page++) {
    const res = await t.json(
      `/api/v1/transaction/history?${query(f, { perPage: String(perPage), page: String(page) })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    totals.add(res.body.pagination.total);
    ids.push(...res.body.data.map((x: { id: string }) => x.id));
    if (!res.body.pagination.hasMore) break;
  }
  return { ids, totals: [...totals] };
}

async function byCursor(f: Filter, perPage: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const extra: Record<string, string> = { perPage: String(perPage), ...(cursor ? { cursor } : {}) };
    const res: { body: any } = await t.json(`/api/v1/transaction/history?${query(f, extra)}`);
    ids.push(...res.body.data.map((x: { id: string }) => x.id));
    cursor = res.body.pagination.nextCursor;
    if (!cursor) break;
  }
  return ids;
}

describe('history totals and pages against a brute-force reading', () => {
  const filters = (): [string, Filter][] => {
    const [first, second, third] = txs as [SyntheticTx, SyntheticTx, SyntheticTx];
    return [
      ['no filter', {}],
      ['one status', { statuses: ['SUCCESS'] }],
      ['two statuses', { statuses: ['PENDING', 'REFUND'] }],
      ['finalizedOnly', { finalizedOnly: true }],
      ['finalizedOnly and only PENDING', { finalizedOnly: true, statuses: ['PENDING'] }],
      ['a referral code', { referralCode: 'alpha' }],
      ['a referral code in another case', { referralCode: 'Alpha' }],
      ['a referral code and a status', { referralCode: 'alpha', statuses: ['FAILED', 'SUCCESS'] }],
      ['a symbol contained in several', { query: 'ETH' }],
      ['a symbol that is also a code', { query: 'usdc' }],
      ['a provider that is also a code', { query: 'relay' }],
      ['a provider in upper case', { query: 'LIFI' }],
      ['a code alone', { query: 'alpha' }],
      ['an id that is also other swaps’ code', { query: first.id }],
      ['a hash', { query: (txs[7] as SyntheticTx).hash as string }],
      ['an outbound hash', { query: txs.find((x) => x.outboundHash)?.outboundHash as string }],
      ['a wallet', { query: ALICE.toLowerCase() }],
      ['the wallet most swaps pay out to', { query: WALLETS.bitcoin }],
      ['a wallet and statuses', { query: ALICE, statuses: ['SUCCESS', 'PENDING'] }],
      ['a wallet that is also a code', { query: WALLETS.solana }],
      ['a wallet that is also a code, and statuses', { query: WALLETS.solana, statuses: ['FAILED'] }],
      ['a lock id', { query: '' }],
      ['a term naming nothing', { query: 'zzz-nothing' }],
      ['a symbol and statuses', { query: 'sol', statuses: ['SUCCESS', 'FAILED'] }],
      ['a term and the code it spells', { query: 'relay', referralCode: 'relay' }],
      ['a symbol within a code', { query: 'ETH', referralCode: 'usdc' }],
      ['an id within the code it is', { query: first.id, referralCode: first.id }],
      ['an id within another code', { query: second.id, referralCode: 'relay' }],
      ['finalizedOnly and a provider term', { finalizedOnly: true, query: 'thorchain' }],
      ['a wallet', { addresses: [ALICE] }],
      ['a wallet that pays itself', { addresses: [ALICE], statuses: ['SUCCESS', 'REFUND'] }],
      ['a wallet that pays itself, as a term', { query: ALICE, statuses: ['FAILED'] }],
      ['a wallet on both sides', { addresses: [BOB] }],
      ['a wallet on both sides, as a term', { query: BOB.toLowerCase() }],
      ['a wallet on both sides, and statuses', { query: BOB, statuses: ['PENDING', 'REFUND'] }],
      ['a wallet paying itself under its two keys', { addresses: [WALLETS.solana] }],
      ['a wallet under its two keys, and a status', { addresses: [WALLETS.solana], statuses: ['SUCCESS'] }],
      ['two wallets, one of them sending to the other', { addresses: [BOB, WALLETS.solana] }],
      ['a wallet, finalized only', { addresses: [ALICE], finalizedOnly: true }],
      ['a wallet filter and a term', { addresses: [ALICE], query: 'relay' }],
      ['two wallets and statuses', { addresses: [ALICE, WALLETS.bitcoin], statuses: ['SUCCESS', 'REFUND'] }],
      ['a transaction id', { transactionId: third.id }],
      ['a transaction id and a term it fails', { transactionId: third.id, query: 'zzz-nothing' }],
    ];
  };

  it('every filter and combination: exact total, every row once, newest first', async () => {
    const table = await rows();
    const lockOf = table.find((r) => r.id === (txs[11] as SyntheticTx).id)?.lock_id as string;
    for (const [label, raw] of filters()) {
      const f = label === 'a lock id' ? { query: lockOf } : raw;
      const expected = table
        .filter((r) => matches(r, f))
        .sort(newestFirst)
        .map((r) => r.id);
      const { ids, totals } = await everyPage(f, 7);
      expect(totals, label).toEqual([expected.length]);
      expect(ids, label).toEqual(expected);
    }
  });

  it('the counted cases are not trivial: terms name several kinds at once', async () => {
    const table = await rows();
    const relay = table.filter((r) => matches(r, { query: 'relay' }));
    expect(relay.some((r) => r.provider === 'RELAY' && r.referral_code === 'relay')).toBe(true);
    expect(relay.some((r) => r.provider !== 'RELAY')).toBe(true);
    const usdc = table.filter((r) => r.referral_code === 'usdc');
    expect(usdc.some((r) => symbols.get(r.src_asset_id ?? 0) === 'USDC')).toBe(true);
    expect(usdc.some((r) => symbols.get(r.src_asset_id ?? 0) !== 'USDC')).toBe(true);
    const first = (txs[0] as SyntheticTx).id;
    expect(table.filter((r) => r.referral_code === first).length).toBeGreaterThan(1);
    expect(await t.app.sql`select 1 from swap_rollup_deltas limit 1`).toHaveLength(1);
    expect(table.some((r) => r.wallet_key === ALICE.toLowerCase() && r.recipient_wallet_key === r.wallet_key)).toBe(
      true,
    );
    expect(table.some((r) => r.recipient_wallet_key === BOB.toLowerCase())).toBe(true);
    expect(
      table.some((r) => r.wallet_key === WALLETS.solana.toLowerCase() && r.recipient_wallet_key === WALLETS.solana),
    ).toBe(true);
  });

  it('walks the same rows by cursor as by page', async () => {
    const table = await rows();
    for (const f of [
      {},
      { query: 'usdc' },
      { statuses: ['FAILED', 'REFUND'] },
      { referralCode: 'relay' },
    ] as Filter[]) {
      const expected = table
        .filter((r) => matches(r, f))
        .sort(newestFirst)
        .map((r) => r.id);
      expect(await byCursor(f, 6)).toEqual(expected);
    }
  });

  it('the legacy history counts the same', async () => {
    const table = await rows();
    for (const term of ['relay', 'usdc', 'ETH', (txs[0] as SyntheticTx).id]) {
      const res = await t.json(`/api/transaction/history?perPage=50&search=${term}`);
      expect(res.body.total, term).toBe(table.filter((r) => matches(r, { query: term })).length);
    }
  });

  it('stays exact after the deltas are folded, and after more changes', async () => {
    await foldSwapDeltas(t.app);
    expect(await t.app.sql`select 1 from swap_rollup_deltas limit 1`).toHaveLength(0);
    const walletFilters: Filter[] = [
      { query: WALLETS.bitcoin },
      { query: WALLETS.bitcoin, statuses: ['SUCCESS', 'FAILED'] },
      { addresses: [ALICE] },
      { query: ALICE, statuses: ['PENDING'] },
      { addresses: [BOB], finalizedOnly: true },
      { addresses: [BOB, WALLETS.solana] },
      { addresses: [WALLETS.solana], statuses: ['PENDING', 'FAILED'] },
    ];
    const expectExact = async (filters: Filter[]) => {
      const table = await rows();
      for (const f of filters) {
        const res = await t.json(`/api/v1/transaction/history?${query(f)}`);
        expect(res.body.pagination.total, JSON.stringify(f)).toBe(table.filter((r) => matches(r, f)).length);
      }
    };
    await expectExact(walletFilters);
    await t.app.sql`update transactions set status = 'SUCCESS', provider = 'LIFI' where status = 'PENDING'`;
    // A swap to oneself, one paying Bob and one of Solana's to itself, deleted once counted.
    await t.app.sql`delete from transactions where id in (
      (select id from transactions where wallet_key = recipient_wallet_key order by id limit 1),
      (select id from transactions where recipient_wallet_key = ${BOB.toLowerCase()} order by id limit 1),
      (select id from transactions where wallet_key = ${WALLETS.solana.toLowerCase()} order by id limit 1))`;
    await expectExact([
      {},
      { statuses: ['PENDING'] },
      { query: 'lifi' },
      { query: 'relay' },
      { referralCode: 'usdc' },
      { query: WALLETS.solana, statuses: ['SUCCESS'] },
      ...walletFilters,
    ]);
    await foldSwapDeltas(t.app);
    await expectExact(walletFilters);
  });

  it('keeps one counter row per wallet and status: each swap counted once for each wallet on it', async () => {
    await foldSwapDeltas(t.app);
    const key = (r: { wallet_key: string; status: string; swaps: string }) => `${r.wallet_key} ${r.status} ${r.swaps}`;
    const counted = await t.app.sql<{ wallet_key: string; status: string; swaps: string }[]>`
      select wallet_key, status::text, swaps::text from wallet_counts where swaps <> 0`;
    const expected = await t.app.sql<{ wallet_key: string; status: string; swaps: string }[]>`
      select wallet_key, status::text, count(*)::text as swaps from (
        select id, status, wallet_key from transactions
        union select id, status, recipient_wallet_key from transactions) sides
      group by 1, 2`;
    expect(counted.map(key).sort()).toEqual(expected.map(key).sort());
    expect(expected.some((r) => r.wallet_key === ALICE.toLowerCase())).toBe(true);
  });
});
