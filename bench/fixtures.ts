/** Data the measurements need, made cheaply: synthetic transactions in SQL, and locks cloned from one real lock. */
import type postgres from 'postgres';
import { newLockId } from '../server/ids';
import { ETH_TO_BTC, WALLETS } from '../test/support/fixtures';
import type { AssetIds } from './setup';

export interface SyntheticTransactions {
  /** Namespaces the generated ids, so several sets can live side by side. */
  tag: string;
  count: number;
  /** The series starts here (default 1), so a large set can go in several statements. */
  first?: number;
  status: 'PENDING' | 'SUCCESS';
  assets: AssetIds;
  /** SQL expressions over the series variable `i`. */
  wallet: string;
  createdAt: string;
  /** 64 hex digits, no 0x; no hashes when absent. */
  hash?: string;
  trackingContext?: string;
  nextPollAt?: string;
}

const ident = (tag: string) => {
  if (!/^[a-z]{1,8}$/.test(tag)) throw new Error(`bad tag ${tag}`);
  return tag;
};

/** `'tx_…'` / `'lk_…'` ids of the right shape (22 base62 characters): the tag, then `i` zero-padded (ascending, so index inserts append). */
export const syntheticId = (kind: 'tx' | 'lk', tag: string) =>
  `'${kind}_${ident(tag)}' || lpad(i::text, ${22 - tag.length}, '0')`;

/** Lock and transaction rows for `first..first+count-1`, in two set-based inserts (no round trip per row). */
export async function insertSyntheticTransactions(
  sql: postgres.Sql | postgres.TransactionSql,
  o: SyntheticTransactions,
): Promise<void> {
  const lockId = syntheticId('lk', o.tag);
  const txId = syntheticId('tx', o.tag);
  const recipient = `'${WALLETS.bitcoin}'`;
  const hash = o.hash ? `'0x' || (${o.hash})` : `''`;
  const hashKey = o.hash ? `(${o.hash})` : 'null';
  const first = o.first ?? 1;
  const series = `generate_series(${first}, ${first + Math.floor(o.count) - 1}) as i`;
  const src = JSON.stringify({
    id: o.assets.eth,
    symbol: 'ETH',
    contract: null,
    image: '',
    chain: 'ethereum',
    decimals: 18,
  });
  const dst = JSON.stringify({
    id: o.assets.btc,
    symbol: 'BTC',
    contract: null,
    image: '',
    chain: 'bitcoin',
    decimals: 8,
  });
  await sql.unsafe(`insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount,
      amount_base, slippage_bps, depositor, recipient, route, provider_quote, state, expires_at, created_at, transaction_id)
    select ${lockId}, 'RELAY', 'relay:swap', 'ethereum', ${o.assets.eth}, 'bitcoin', ${o.assets.btc}, '1',
      1000000000000000000, 100, ${o.wallet}, ${recipient}, '{}', '{}', 'used', (${o.createdAt}) + interval '1 minute',
      ${o.createdAt}, ${txId}
    from ${series}`);
  await sql.unsafe(`insert into transactions (id, lock_id, provider, status, hash, inbound_hash, hash_key, inbound_hash_key,
      src_chain, dst_chain, src_asset, dst_asset, src_amount, dst_amount, src_amount_base, dst_amount_base, amount_usd,
      wallet_address, recipient_wallet_address, wallet_key, recipient_wallet_key, quote, provider_result,
      tracking_context, next_poll_at, created_at, updated_at, finalized_at)
    select ${txId}, ${lockId}, 'RELAY', '${o.status}', ${hash}, ${hash}, ${hashKey}, ${hashKey},
      'ethereum', 'bitcoin', '${src}', '${dst}', '1', '0.03', 1000000000000000000, 3000000, 3200,
      ${o.wallet}, ${recipient}, ${o.wallet}, ${recipient}, '{}', '{}',
      ${o.trackingContext ?? `'{}'`}, ${o.nextPollAt ?? 'null'}, ${o.createdAt}, ${o.createdAt},
      ${o.status === 'PENDING' ? 'null' : o.createdAt}
    from ${series}`);
}

/** One real lock through the public API (Relay, ETH → BTC), so its provider quote is genuine. */
export async function lockRoute(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/quote/lock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ETH_TO_BTC, provider: 'RELAY' }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { data?: { lockId?: string } };
  if (res.status !== 200 || !body.data?.lockId) {
    throw new Error(`lock failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body.data.lockId;
}

/** `n` fresh, live copies of one lock (new ids, state locked, 15 minutes to live). */
export async function cloneLocks(sql: postgres.Sql, templateId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, newLockId);
  const inserted = await sql`insert into locks (id, interface, provider, route_id, src_chain, src_asset_id, dst_chain,
      dst_asset_id, amount, amount_base, slippage_bps, depositor, recipient, referral_code, route, provider_quote, state,
      expires_at, created_at)
    select copy.id, l.interface, l.provider, l.route_id, l.src_chain, l.src_asset_id, l.dst_chain, l.dst_asset_id,
      l.amount, l.amount_base, l.slippage_bps, l.depositor, l.recipient, l.referral_code, l.route, l.provider_quote,
      'locked', now() + interval '15 minutes', now()
    from locks l, unnest(${sql.array(ids)}::text[]) as copy(id)
    where l.id = ${templateId}
    returning id`;
  if (inserted.length !== n) throw new Error(`cloned ${inserted.length} of ${n} locks`);
  return ids;
}
