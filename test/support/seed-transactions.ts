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
    const columns: Record<string, string | number | null> = {
      id,
      lock_id: lockId,
      provider: row.provider ?? 'RELAY',
      status: row.status ?? 'PENDING',
      hash,
      inbound_hash: hash,
      outbound_hash: row.outboundHash ?? null,
      hash_key: hashKey(hash),
      inbound_hash_key: hashKey(hash),
      outbound_hash_key: hashKey(row.outboundHash ?? null),
      src_chain: src.chain,
      dst_chain: dst.chain,
      src_asset: JSON.stringify({ ...src, contract: null, image: 'https://x/src.png', decimals: 18 }),
      dst_asset: JSON.stringify({ ...dst, contract: null, image: 'https://x/dst.png', decimals: 8 }),
      src_amount: '1',
      dst_amount: '0.03',
      src_amount_base: '1000000000000000000',
      amount_usd: row.amountUsd ?? '3200',
      wallet_address: row.wallet,
      recipient_wallet_address: row.recipient,
      wallet_key: row.walletKey ?? row.wallet.toLowerCase(),
      recipient_wallet_key: row.recipientKey ?? row.recipient,
      referral_code: row.referralCode ?? null,
      quote: '{}',
      provider_result: '{}',
      tracking_context: '{}',
      created_at: at,
      updated_at: at,
      finalized_at: row.status && row.status !== 'PENDING' ? at : null,
    };
    // Columns later migrations added go in only when given, so a test can seed a database migrated part way.
    if (row.referralOwnerId !== undefined) columns.referral_owner_id = row.referralOwnerId;
    if (row.feeUsd !== undefined) columns.quoted_fee_usd = row.feeUsd;
    await ctx.sql`insert into transactions ${ctx.sql(columns)}`;
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
