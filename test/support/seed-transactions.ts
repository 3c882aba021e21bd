import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../server/context';
import { newLockId, newTransactionId } from '../../server/ids';
import { hashKey } from '../../server/transactions/keys';

export interface SyntheticTx {
  id: string;
  status?: 'PENDING' | 'SUCCESS' | 'FAILED' | 'REFUND';
  wallet: string;
  recipient: string;
  walletKey?: string;
  recipientKey?: string;
  referralCode?: string | null;
  createdAt: Date;
  hash?: string;
  outboundHash?: string | null;
  provider?: string;
  amountUsd?: string;
  /** Catalog assets (default: ids 1 and 2 labelled ETH on ethereum and BTC on bitcoin). */
  srcAsset?: { id: number; symbol: string; chain: string };
  dstAsset?: { id: number; symbol: string; chain: string };
  referralOwnerId?: string | null;
  feeUsd?: string | null;
}

/** Inserts lock + transaction rows directly, for history and lookup tests that need many of them. */
export async function insertTransactions(
  ctx: Pick<AppContext, 'sql'>,
  rows: Omit<SyntheticTx, 'id'>[],
): Promise<SyntheticTx[]> {
  const created: SyntheticTx[] = [];
  for (const row of rows) {
    const at = row.createdAt.toISOString();
    const id = newTransactionId();
    const lockId = newLockId();
    const hash = row.hash ?? `0x${randomBytes(32).toString('hex')}`;
    const src = row.srcAsset ?? { id: 1, symbol: 'ETH', chain: 'ethereum' };
    const dst = row.dstAsset ?? { id: 2, symbol: 'BTC', chain: 'bitcoin' };
    await ctx.sql`insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount, amount_base,
        slippage_bps, depositor, recipient, route, provider_quote, state, expires_at, created_at, transaction_id)
      values (${lockId}, ${row.provider ?? 'RELAY'}, 'relay:swap', ${src.chain}, ${src.id}, ${dst.chain}, ${dst.id}, '1', '1000000000000000000', 100,
        ${row.wallet}, ${row.recipient}, '{}', '{}', 'used', now(), ${at}, ${id})`;
    await ctx.sql`insert into transactions (id, lock_id, provider, status, hash, inbound_hash, outbound_hash, hash_key, inbound_hash_key,
        outbound_hash_key, src_chain, dst_chain, src_asset, dst_asset, src_amount, dst_amount, src_amount_base, amount_usd,
        wallet_address, recipient_wallet_address, wallet_key, recipient_wallet_key, referral_code, referral_owner_id,
        quoted_fee_usd, quote, provider_result, tracking_context, created_at, updated_at, finalized_at)
      values (${id}, ${lockId}, ${row.provider ?? 'RELAY'}, ${row.status ?? 'PENDING'}, ${hash}, ${hash}, ${row.outboundHash ?? null},
        ${hashKey(hash)}, ${hashKey(hash)}, ${hashKey(row.outboundHash ?? null)}, ${src.chain}, ${dst.chain},
        ${JSON.stringify({ ...src, contract: null, image: 'https://x/src.png', decimals: 18 })},
        ${JSON.stringify({ ...dst, contract: null, image: 'https://x/dst.png', decimals: 8 })},
        '1', '0.03', '1000000000000000000', ${row.amountUsd ?? '3200'}, ${row.wallet}, ${row.recipient},
        ${row.walletKey ?? row.wallet.toLowerCase()}, ${row.recipientKey ?? row.recipient}, ${row.referralCode ?? null},
        ${row.referralOwnerId ?? null}, ${row.feeUsd ?? null}, '{}', '{}', '{}', ${at}, ${at},
        ${row.status && row.status !== 'PENDING' ? at : null})`;
    created.push({ ...row, id, hash });
  }
  return created;
}

/** Registers referral codes as an affiliate would in the dashboard, so lock and execute attribute them. */
export async function registerReferralCodes(ctx: AppContext, codes: string[], ownerId = 'test-affiliate') {
  for (const code of codes) {
    await ctx.sql`insert into referral_codes (code, owner_id) values (${code}, ${ownerId}) on conflict do nothing`;
  }
}
