/**
 * A year of swaps as an operator would see it, made in SQL (`generate_series`, no row-by-row round
 * trips): the demo dataset (`npm run db:demo`) and the scale bench's 100k and 10M datasets are this one
 * generator at different sizes. Per swap: the transaction, its executed lock and one lock never executed,
 * and its timeline (2–3 events). Around them: referral codes of 20 affiliates, a week of provider quote
 * calls (4 per lock), 35 days of rate-limit hits and a week of queue depth samples.
 *
 * The mix: four providers (THORChain 35 %, Relay 30 %, LI.FI 20 %, Chainflip 15 %) over 24 asset pairs
 * weighted like real traffic; settled swaps 93 % SUCCESS, 4.5 % FAILED (half of them deposits that never
 * came), 2.5 % REFUND; swaps of the last minutes mostly PENDING (half awaiting their deposit), 0.1 % of the
 * older ones stuck PENDING and stale; 22 % credited to one of 200 referral codes (a few codes take most),
 * 3 % carrying a code nobody registered; wallets: one per ten swaps, 1 % of swaps from 20 hot wallets.
 */
import type postgres from 'postgres';

export interface SwapDatasetOptions {
  /** Transactions to make; locks are twice as many. */
  swaps: number;
  /** Spread evenly over this many days up to `now`. */
  days: number;
  now: Date;
  /** Ids are `tx_<tag>…`, `lk_<tag>…`: lowercase letters, different datasets in one database need different tags. */
  tag: string;
  /** Rows per statement. */
  chunk?: number;
  /**
   * Payloads cut to what the reads use (no image URLs in asset snapshots, short quotes, no execution
   * answer once settled), so 10M swaps fit a bench machine; the columns and indexes are the same.
   */
  slim?: boolean;
  onProgress?: (made: number) => void;
  /** After each statement, with the creation time the swaps made so far reach (a bulk load's housekeeping). */
  afterChunk?: (madeUntil: Date) => Promise<void>;
}

interface Pair {
  from: [chain: string, symbol: string];
  to: [chain: string, symbol: string];
  weight: number;
}

const PAIRS: Pair[] = [
  { from: ['ethereum', 'ETH'], to: ['bitcoin', 'BTC'], weight: 14 },
  { from: ['bitcoin', 'BTC'], to: ['ethereum', 'ETH'], weight: 10 },
  { from: ['ethereum', 'USDC'], to: ['arbitrum', 'USDC'], weight: 10 },
  { from: ['ethereum', 'ETH'], to: ['arbitrum', 'ETH'], weight: 8 },
  { from: ['base', 'ETH'], to: ['ethereum', 'ETH'], weight: 6 },
  { from: ['arbitrum', 'USDC'], to: ['base', 'USDC'], weight: 6 },
  { from: ['ethereum', 'USDT'], to: ['bitcoin', 'BTC'], weight: 5 },
  { from: ['bitcoin', 'BTC'], to: ['ethereum', 'USDC'], weight: 5 },
  { from: ['ethereum', 'ETH'], to: ['solana', 'SOL'], weight: 5 },
  { from: ['ethereum', 'ETH'], to: ['ethereum', 'USDC'], weight: 4 },
  { from: ['solana', 'SOL'], to: ['ethereum', 'USDC'], weight: 4 },
  { from: ['optimism', 'ETH'], to: ['base', 'ETH'], weight: 3 },
  { from: ['polygon', 'USDC'], to: ['ethereum', 'USDC'], weight: 3 },
  { from: ['bsc', 'BNB'], to: ['ethereum', 'ETH'], weight: 3 },
  { from: ['avalanche', 'AVAX'], to: ['ethereum', 'USDC'], weight: 2 },
  { from: ['litecoin', 'LTC'], to: ['bitcoin', 'BTC'], weight: 2 },
  { from: ['dogecoin', 'DOGE'], to: ['ethereum', 'USDT'], weight: 2 },
  { from: ['thorchain', 'RUNE'], to: ['bitcoin', 'BTC'], weight: 2 },
  { from: ['cosmoshub', 'ATOM'], to: ['thorchain', 'RUNE'], weight: 1 },
  { from: ['ton', 'TON'], to: ['ethereum', 'USDT'], weight: 1 },
  { from: ['ethereum', 'WBTC'], to: ['bitcoin', 'BTC'], weight: 1 },
  { from: ['arbitrum', 'ARB'], to: ['ethereum', 'ETH'], weight: 1 },
  { from: ['ethereum', 'PEPE'], to: ['ethereum', 'ETH'], weight: 1 },
  { from: ['bitcoin', 'BTC'], to: ['solana', 'SOL'], weight: 1 },
];

const PROVIDER_WEIGHTS: [string, number][] = [
  ['THORCHAIN', 7],
  ['RELAY', 6],
  ['LIFI', 4],
  ['CHAINFLIP', 3],
];

const FALLBACK_PRICES: Record<string, number> = {
  ETH: 3200,
  WETH: 3200,
  BTC: 95_000,
  WBTC: 95_000,
  SOL: 180,
  BNB: 600,
  AVAX: 35,
  LTC: 90,
  DOGE: 0.2,
  RUNE: 5,
  ATOM: 8,
  TON: 5,
  ARB: 0.8,
  PEPE: 0.00001,
};

export const DATASET_AFFILIATES = 20;
export const DATASET_CODES_PER_AFFILIATE = 10;
const HOT_WALLETS = 20;
const HOT_SHARE = 0.01;
const CREDITED_SHARE = 0.22;
const UNREGISTERED_SHARE = 0.03;

/** A Postgres array literal, so arrays travel as one text parameter whatever the client knows of array types. */
const arrayLiteral = (values: (string | number | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;

/** Each entry repeated by its weight: a uniform index into it is a weighted choice. */
const weighted = <T>(entries: [T, number][]) => entries.flatMap(([value, w]) => Array<T>(w).fill(value));

interface Catalog {
  ids: number[][];
  chains: string[][];
  chainIds: number[][];
  /** THORChain's (null where it has none) and Chainflip's names of the chain (the memo's `ETH.ETH`, a channel id's `Ethereum`). */
  thorchainCodes: (string | null)[][];
  chainflipNames: string[][];
  types: string[][];
  symbols: string[][];
  contracts: (string | null)[][];
  images: string[][];
  decimals: number[][];
  prices: number[][];
  pairIndex: number[];
}

async function catalogPairs(sql: postgres.Sql): Promise<Catalog> {
  const rows = await sql<
    {
      id: number;
      chain: string;
      chain_id: string;
      thorchain_code: string | null;
      chainflip_name: string;
      type: string;
      symbol: string;
      address: string;
      native: boolean;
      image: string;
      decimals: number;
      price: string | null;
    }[]
  >`select a.id, a.chain_key as chain, c.chain_id::text,
           c.provider_ids ->> 'thorchain' as thorchain_code,
           coalesce(c.provider_ids ->> 'chainflip', initcap(c.key)) as chainflip_name, c.type, a.symbol, a.address, a.is_native as native, a.image, a.decimals,
           a.price_usd::text as price
    from assets a join chains c on c.key = a.chain_key`;
  const find = ([chain, symbol]: [string, string]) => rows.find((r) => r.chain === chain && r.symbol === symbol);
  const usable = PAIRS.flatMap((p) => {
    const [src, dst] = [find(p.from), find(p.to)];
    return src && dst ? [{ src, dst, weight: p.weight }] : [];
  });
  if (!usable.length) throw new Error('swap dataset: the catalog has none of the assets it swaps (seed it first)');
  const side = <T>(pick: (r: (typeof rows)[number]) => T) => [
    usable.map((p) => pick(p.src)),
    usable.map((p) => pick(p.dst)),
  ];
  return {
    ids: side((r) => r.id),
    chains: side((r) => r.chain),
    chainIds: side((r) => Number(r.chain_id)),
    thorchainCodes: side((r) => r.thorchain_code),
    chainflipNames: side((r) => r.chainflip_name),
    types: side((r) => r.type),
    symbols: side((r) => r.symbol),
    contracts: side((r) => (r.native ? null : r.address)),
    images: side((r) => r.image),
    decimals: side((r) => r.decimals),
    prices: side((r) => Number(r.price ?? FALLBACK_PRICES[r.symbol] ?? 1) || 1),
    pairIndex: weighted(usable.map((p, i) => [i + 1, p.weight])),
  };
}

export const affiliateId = (k: number) => `usr_dataset_affiliate_${String(k).padStart(2, '0')}`;
export const referralCodeOf = (k: number) =>
  `PARTNER-${String(Math.floor((k - 1) / DATASET_CODES_PER_AFFILIATE) + 1).padStart(2, '0')}-${String(((k - 1) % DATASET_CODES_PER_AFFILIATE) + 1).padStart(2, '0')}`;

/** The affiliates (accounts without a password: they cannot sign in) and their codes, registered a year before `now`. */
async function affiliates(sql: postgres.Sql, now: Date) {
  const codes = DATASET_AFFILIATES * DATASET_CODES_PER_AFFILIATE;
  const registered = new Date(now.getTime() - 400 * 86_400_000).toISOString();
  await sql`
    insert into auth_user (id, name, email, email_verified, role, created_at, updated_at)
    select 'usr_dataset_affiliate_' || lpad(k::text, 2, '0'), 'Partner ' || k, 'partner-' || k || '@dataset.switchyard.test',
           true, 'affiliate', ${registered}::timestamptz, ${registered}::timestamptz
    from generate_series(1, ${DATASET_AFFILIATES}) k
    on conflict do nothing`;
  await sql`
    insert into referral_codes (code, owner_id, label, active, created_at)
    select 'PARTNER-' || lpad((1 + (k - 1) / ${DATASET_CODES_PER_AFFILIATE})::text, 2, '0') || '-'
             || lpad((1 + (k - 1) % ${DATASET_CODES_PER_AFFILIATE})::text, 2, '0'),
           'usr_dataset_affiliate_' || lpad((1 + (k - 1) / ${DATASET_CODES_PER_AFFILIATE})::text, 2, '0'),
           'Campaign ' || k, true, ${registered}::timestamptz
    from generate_series(1, ${codes}) k
    on conflict do nothing`;
  return codes;
}

/** Swaps `first..last` with their locks and timelines, in one statement. */
async function swapChunk(
  sql: postgres.Sql,
  o: SwapDatasetOptions,
  cat: Catalog,
  codes: number,
  first: number,
  last: number,
) {
  const stepMs = (o.days * 86_400_000) / o.swaps;
  const start = new Date(o.now.getTime() - o.days * 86_400_000).toISOString();
  const now = o.now.toISOString();
  const wallets = Math.max(100, Math.round(o.swaps / 10));
  const providers = weighted(PROVIDER_WEIGHTS);
  const tag = o.tag;
  const pad = (room: number) => 22 - tag.length - room;
  const a = (values: (string | number | null)[], type: string) => sql`${arrayLiteral(values)}::${sql.unsafe(type)}`;
  const [srcIds, dstIds] = cat.ids as [number[], number[]];
  const [srcChains, dstChains] = cat.chains as [string[], string[]];
  const [srcChainIds] = cat.chainIds as [number[], number[]];
  const [, dstThorchainCodes] = cat.thorchainCodes as [(string | null)[], (string | null)[]];
  const [srcChainflipNames] = cat.chainflipNames as [string[], string[]];
  const [srcTypes, dstTypes] = cat.types as [string[], string[]];
  const [srcSymbols, dstSymbols] = cat.symbols as [string[], string[]];
  const [srcContracts, dstContracts] = cat.contracts as [(string | null)[], (string | null)[]];
  const [srcImages, dstImages] = cat.images as [string[], string[]];
  const [srcDecimals, dstDecimals] = cat.decimals as [number[], number[]];
  const [srcPrices, dstPrices] = cat.prices as [number[], number[]];
  const route = o.slim
    ? sql`jsonb_build_object('routeId', lower(provider))`
    : sql`jsonb_build_object('provider', provider, 'routeId', lower(provider) || ':' || src_chain || '-' || dst_chain,
        'src', jsonb_build_object('formatted', src_amount::text, 'usd', round(usd::numeric, 2)::text),
        'dst', jsonb_build_object('formatted', dst_amount::text, 'usd', round((usd * 0.995)::numeric, 2)::text),
        'fee', jsonb_build_object('usd', quoted_fee, 'currency', 'USD'), 'estimatedTime', 60 + floor(u3 * 900)::int)`;
  await sql`
    with s as materialized (
      select i,
             ${start}::timestamptz + ((i - 1) + random()) * ${stepMs}::float8 * interval '1 millisecond' as at,
             random() as u1, random() as u2, random() as u3, random() as u4, random() as u5,
             random() as u6, random() as u7, random() as u8, random() as u9, random() as u10
      from generate_series(${first}::bigint, ${last}::bigint) as i
    ),
    c as materialized (
      select s.*,
             (${a(cat.pairIndex, 'int[]')})[1 + floor(u1 * ${cat.pairIndex.length})::int] as p,
             (${a(providers, 'text[]')})[1 + floor(u2 * ${providers.length})::int] as provider,
             case when u3 < ${HOT_SHARE} then floor(u4 * ${HOT_WALLETS})::bigint
                  else ${HOT_WALLETS} + floor(power(u4, 1.5) * ${wallets})::bigint end as w,
             extract(epoch from ${now}::timestamptz - at) as age,
             least(2e6, greatest(1, exp(ln(60) + 1.7 * sqrt(-2 * ln(greatest(u5, 1e-12))) * cos(2 * pi() * u6)))) as usd,
             case when u7 < ${CREDITED_SHARE} then 1 + floor(${codes} * power(u8, 2.5))::int
                  when u7 < ${CREDITED_SHARE + UNREGISTERED_SHARE} then -1 else 0 end as code_no
      from s
    ),
    d as materialized (
      select c.*,
             'tx_${sql.unsafe(tag)}' || lpad(i::text, ${pad(0)}, '0') as tx_id,
             'lk_${sql.unsafe(tag)}e' || lpad(i::text, ${pad(1)}, '0') as lock_id,
             'lk_${sql.unsafe(tag)}x' || lpad(i::text, ${pad(1)}, '0') as idle_lock_id,
             (${a(srcIds, 'int[]')})[p] as src_id, (${a(dstIds, 'int[]')})[p] as dst_id,
             (${a(srcChains, 'text[]')})[p] as src_chain, (${a(dstChains, 'text[]')})[p] as dst_chain,
             (${a(srcTypes, 'text[]')})[p] as src_type, (${a(dstTypes, 'text[]')})[p] as dst_type,
             (${a(srcPrices, 'float8[]')})[p] as src_price, (${a(dstPrices, 'float8[]')})[p] as dst_price,
             (${a(srcDecimals, 'int[]')})[p] as src_decimals, (${a(dstDecimals, 'int[]')})[p] as dst_decimals,
             jsonb_build_object('id', (${a(srcIds, 'int[]')})[p], 'symbol', (${a(srcSymbols, 'text[]')})[p],
               'contract', (${a(srcContracts, 'text[]')})[p], 'image', ${o.slim ? sql`''` : sql`(${a(srcImages, 'text[]')})[p]`},
               'chain', (${a(srcChains, 'text[]')})[p], 'decimals', (${a(srcDecimals, 'int[]')})[p]) as src_asset,
             jsonb_build_object('id', (${a(dstIds, 'int[]')})[p], 'symbol', (${a(dstSymbols, 'text[]')})[p],
               'contract', (${a(dstContracts, 'text[]')})[p], 'image', ${o.slim ? sql`''` : sql`(${a(dstImages, 'text[]')})[p]`},
               'chain', (${a(dstChains, 'text[]')})[p], 'decimals', (${a(dstDecimals, 'int[]')})[p]) as dst_asset,
             md5('w' || w) || md5('v' || w) as wallet_hex,
             md5(${tag} || i || 'h') || md5(${tag} || i || 'g') as hash_hex,
             md5(${tag} || i || 'o') || md5(${tag} || i || 'p') as out_hex,
             case
               when age < 600 and u9 < 0.8 then 'PENDING'
               when age < 7200 and u9 < 0.2 then 'PENDING'
               when u9 < 0.001 then 'PENDING'
               when u9 < 0.046 then 'FAILED'
               when u9 < 0.071 then 'REFUND'
               else 'SUCCESS' end::transaction_status as status,
             case when code_no > 0 then 'PARTNER-' || lpad((1 + (code_no - 1) / ${DATASET_CODES_PER_AFFILIATE})::text, 2, '0')
                                         || '-' || lpad((1 + (code_no - 1) % ${DATASET_CODES_PER_AFFILIATE})::text, 2, '0')
                  when code_no < 0 then 'promo' || (1 + floor(u8 * 50))::int end as referral_code,
             case when code_no > 0 then 'usr_dataset_affiliate_' || lpad((1 + (code_no - 1) / ${DATASET_CODES_PER_AFFILIATE})::text, 2, '0')
                  end as referral_owner_id
      from c
    ),
    x as materialized (
      select d.*,
             -- No deposit: fresh swaps half the time, and the FAILED ones whose deposit never came.
             (status = 'PENDING' and age < 600 and u10 < 0.5) or (status = 'FAILED' and u10 < 0.5) as unfunded,
             case when src_type = 'EVM' then '0x' || substr(wallet_hex, 1, 40)
                  when src_type = 'UTXO' then 'bc1q' || substr(wallet_hex, 1, 38)
                  else substr(wallet_hex, 1, 44) end as wallet,
             case when dst_type = 'EVM' then '0x' || substr(wallet_hex, 1, 40)
                  when dst_type = 'UTXO' then 'bc1q' || substr(wallet_hex, 1, 38)
                  else substr(wallet_hex, 1, 44) end as recipient,
             round((usd / src_price)::numeric, least(src_decimals, 8)) as src_amount,
             round((usd * 0.995 / dst_price)::numeric, least(dst_decimals, 8)) as dst_amount,
             round((usd * (0.001 + u10 * 0.005))::numeric, 4) as quoted_fee,
             case when status = 'PENDING' then null else at + (20 + u4 * 1800) * interval '1 second' end as finalized_at
      from d
    ),
    y as materialized (
      select x.*,
             case when unfunded then '' when src_type = 'EVM' then '0x' || hash_hex else hash_hex end as hash,
             case when unfunded then null else hash_hex end as hash_key,
             case when status in ('SUCCESS', 'REFUND') then case when dst_type = 'EVM' then '0x' || out_hex else out_hex end end
               as outbound_hash,
             case when status in ('SUCCESS', 'REFUND') then out_hex end as outbound_key,
             lower(wallet) as wallet_key_,
             lower(recipient) as recipient_key_
      from x
    ),
    executed_locks as (
      insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount, amount_base,
        slippage_bps, depositor, recipient, referral_code, referral_owner_id, route, provider_quote, state, expires_at,
        claimed_at, used_at, transaction_id, created_at, updated_at)
      select lock_id, provider, lower(provider) || ':' || src_chain || '-' || dst_chain, src_chain, src_id, dst_chain, dst_id,
             src_amount::text, floor(src_amount * 10::numeric ^ src_decimals), 100, wallet, recipient, referral_code,
             referral_owner_id,
             ${route},
             ${o.slim ? sql`jsonb_build_object('quoteId', lock_id)` : sql`jsonb_build_object('quoteId', md5(lock_id), 'expiry', extract(epoch from at)::bigint + 600)`},
             'used', at + interval '50 seconds', at - interval '1 second', at, tx_id,
             at - (2 + u8 * 40) * interval '1 second', at
      from y
    ),
    idle_locks as (
      insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount, amount_base,
        slippage_bps, depositor, recipient, referral_code, referral_owner_id, route, provider_quote, state, expires_at,
        created_at, updated_at)
      select idle_lock_id, provider, lower(provider) || ':' || src_chain || '-' || dst_chain, src_chain, src_id, dst_chain,
             dst_id, src_amount::text, floor(src_amount * 10::numeric ^ src_decimals), 100, wallet, recipient, referral_code,
             referral_owner_id,
             ${route},
             ${o.slim ? sql`jsonb_build_object('quoteId', idle_lock_id)` : sql`jsonb_build_object('quoteId', md5(idle_lock_id), 'expiry', extract(epoch from at)::bigint + 600)`},
             'locked', at - u7 * ${stepMs}::float8 * interval '1 millisecond' + interval '60 seconds',
             at - u7 * ${stepMs}::float8 * interval '1 millisecond', at - u7 * ${stepMs}::float8 * interval '1 millisecond'
      from y
    ),
    events as (
      insert into transaction_events (transaction_id, type, from_status, to_status, message, data, created_at)
      select tx_id, 'created', null::transaction_status, 'PENDING'::transaction_status, 'Executed lock ' || lock_id || ' through ' || provider,
             jsonb_build_object('lockId', lock_id, 'provider', provider), at
      from y
      union all
      select tx_id, 'track', null::transaction_status, null::transaction_status, 'Hash reported by the client', jsonb_build_object('hash', hash),
             at + (10 + u6 * 60) * interval '1 second'
      from y where hash <> '' and u10 < 0.6
      union all
      select tx_id, 'status_changed', 'PENDING'::transaction_status, status,
             'Provider reports ' || status || case when unfunded then ' (deposit never came)' else '' end,
             jsonb_build_object('upstream', lower(status::text), 'outboundHash', outbound_hash), finalized_at
      from y where status <> 'PENDING'
    )
    insert into transactions (id, lock_id, provider, status, substatus, hash, inbound_hash, outbound_hash, hash_key,
      inbound_hash_key, outbound_hash_key, src_chain, dst_chain, src_asset, dst_asset, src_amount, dst_amount,
      src_amount_base, dst_amount_base, amount_usd, wallet_address, recipient_wallet_address, wallet_key,
      recipient_wallet_key, quoted_fee_usd, fee_amount_usd, referral_code, referral_owner_id, quote, provider_result,
      execution, tracking_context, next_poll_at, stale, deposit_deadline, finalized_at, created_at, updated_at)
    select tx_id, lock_id, provider, status, case when status = 'FAILED' and unfunded then 'EXPIRED' end, hash, hash,
           outbound_hash, hash_key, hash_key, outbound_key, src_chain, dst_chain, src_asset, dst_asset, src_amount::text,
           dst_amount::text, floor(src_amount * 10::numeric ^ src_decimals), floor(dst_amount * 10::numeric ^ dst_decimals),
           round(usd::numeric, 2), wallet, recipient, wallet_key_, recipient_key_, quoted_fee,
           case when status <> 'PENDING' then round(quoted_fee * (0.8 + u2 * 0.4)::numeric, 4) end, referral_code, referral_owner_id,
           ${
             o.slim
               ? sql`jsonb_build_object('estimatedTime', 60 + floor(u3 * 900)::int)`
               : sql`jsonb_build_object(
             'src', jsonb_build_object('formatted', src_amount::text, 'usd', round(usd::numeric, 2)::text),
             'dst', jsonb_build_object('formatted', dst_amount::text, 'usd', round((usd * 0.995)::numeric, 2)::text),
             'steps', jsonb_build_array(jsonb_build_object('type', 'swap', 'name', provider)),
             'fee', jsonb_build_object('usd', quoted_fee, 'currency', 'USD'), 'estimatedTime', 60 + floor(u3 * 900)::int)`
           },
           jsonb_build_object('requestId', ${o.slim ? sql`i` : sql`md5(tx_id)`}),
           ${o.slim ? sql`null` : sql`e.answer`},
           ${
             o.slim
               ? sql`jsonb_build_object('requestId', i)`
               : // What tracking records on settling (server/transactions/settlement.ts): a refund's amount and
                 // transaction, and for some swaps the amount quoted before the provider settled on another.
                 sql`jsonb_build_object('requestId', md5(tx_id), 'depositAddress', recipient) || case
             when status = 'REFUND' then jsonb_build_object('settlement', jsonb_build_object('refund', jsonb_build_object(
               'amount', round(src_amount * 0.995, least(src_decimals, 8))::text, 'hash', outbound_hash)))
             when status = 'SUCCESS' and u2 < 0.3 then jsonb_build_object('settlement', jsonb_build_object(
               'quotedDstAmount', round(dst_amount * 1.002, least(dst_decimals, 8))::text))
             else '{}'::jsonb end`
           },
           case when status = 'PENDING' then ${now}::timestamptz + u1 * interval '60 seconds' end,
           status = 'PENDING' and age > 21600, at + interval '1 hour', finalized_at, at, coalesce(finalized_at, at)
    from y ${
      o.slim
        ? sql``
        : sql`cross join lateral (${executeAnswer(sql, {
            srcChainIds: a(srcChainIds, 'bigint[]'),
            dstThorchainCodes: a(dstThorchainCodes, 'text[]'),
            srcChainflipNames: a(srcChainflipNames, 'text[]'),
          })}) as e`
    }`;
}

/**
 * What execute answered, in the shape it answers (`executeResultSchema`; the /tx page shows its deposit or
 * wallet call while a swap waits for the swapper): a deposit address with THORChain's memo, a Chainflip
 * deposit channel, or a wallet call from an EVM chain, with made-up addresses, calldata and ids. Read from `y`.
 */
function executeAnswer(
  sql: postgres.Sql,
  names: Record<'srcChainIds' | 'dstThorchainCodes' | 'srcChainflipNames', postgres.PendingQuery<postgres.Row[]>>,
) {
  return sql`
    select jsonb_build_object(
      'provider', provider, 'lockId', lock_id,
      'providerResult', case v.mode
        when 'evm-calldata' then jsonb_build_object('status', 'AWAITING_WALLET', 'requestId', '0x' || md5(tx_id || 'r'),
          'execution', v.mode)
        when 'deposit-channel' then jsonb_build_object('status', 'AWAITING_DEPOSIT', 'channelId', extra.channel_id,
          'depositAddress', v.deposit_address, 'execution', v.mode)
        else jsonb_strip_nulls(jsonb_build_object('status', 'AWAITING_DEPOSIT', 'depositAddress', v.deposit_address,
          'depositMemo', extra.memo, 'execution', v.mode)) end,
      'quote', jsonb_build_object(
        'src', jsonb_build_object('formatted', src_amount::text || ' ' || (src_asset ->> 'symbol'),
          'currency', src_asset ->> 'symbol', 'usd', round(usd::numeric, 2)::text, 'amount', src_amount::text),
        'dst', jsonb_build_object('formatted', dst_amount::text || ' ' || (dst_asset ->> 'symbol'),
          'currency', dst_asset ->> 'symbol', 'usd', round((usd * 0.995)::numeric, 2)::text, 'amount', dst_amount::text),
        'minimumReceived', round(dst_amount * 0.99, least(dst_decimals, 8))::text,
        'steps', jsonb_build_array(jsonb_build_object(
          'type', case when v.mode = 'evm-calldata' then 'swap' else 'deposit' end, 'name', provider, 'image', '')),
        'fee', v.fee, 'feeBreakdown', jsonb_build_object('total', v.fee - 'details', 'items', v.fee -> 'details'),
        'estimatedTime', 60 + floor(u3 * 900)::int),
      'fee', v.fee,
      'exec', case v.mode
        when 'evm-calldata' then jsonb_build_object('chainId', v.chain_id, 'providerTarget', v.router,
          'providerCalldata', '0x' || md5(tx_id || 'c1') || md5(tx_id || 'c2') || md5(tx_id || 'c3') || md5(tx_id || 'c4'),
          'value', extra.value, 'srcToken', v.src_token, 'srcAmount', v.src_base,
          'meta', jsonb_build_object('providerQuoteId', md5(lock_id), 'executionMode', v.mode, 'walletExecution', true))
          || case when v.src_token = 'native' then '{}'::jsonb
                  else jsonb_build_object('approvalTarget', v.router, 'approvalToken', v.src_token,
                    'approvalAmount', v.src_base) end
        else jsonb_build_object('chainId', v.chain_id, 'providerTarget', v.deposit_address, 'value', extra.value,
          'srcToken', v.src_token, 'srcAmount', v.src_base,
          'meta', jsonb_strip_nulls(jsonb_build_object('executionMode', v.mode, 'walletExecution', false,
            'depositAddress', v.deposit_address, 'depositMemo', extra.memo, 'channelId', extra.channel_id,
            'expiresAt', to_char(at + interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')))) end,
      'transaction', jsonb_build_object('id', tx_id, 'status', 'PENDING')) as answer
    from (
      select case when provider = 'CHAINFLIP' then 'deposit-channel'
                  when src_type = 'EVM' then 'evm-calldata' else 'deposit-address' end as mode,
             case when src_type = 'EVM' then (${names.srcChainIds})[p] end as chain_id,
             case when src_type = 'EVM' then '0x' || substr(md5(tx_id || 'd') || md5(tx_id || 'e'), 1, 40)
                  when src_type = 'UTXO' then 'bc1q' || substr(md5(tx_id || 'd') || md5(tx_id || 'e'), 1, 38)
                  else substr(md5(tx_id || 'd') || md5(tx_id || 'e'), 1, 44) end as deposit_address,
             '0x' || substr(md5(provider || 'router') || md5(provider), 1, 40) as router,
             (floor(src_amount * 10::numeric ^ src_decimals))::numeric(78, 0)::text as src_base,
             coalesce(src_asset ->> 'contract', 'native') as src_token,
             jsonb_build_object('usd', quoted_fee, 'formatted', '$' || to_char(quoted_fee, 'FM999999990.00'),
               'currency', 'USD', 'details', jsonb_build_array(jsonb_build_object('label', 'Network fee',
                 'type', 'network', 'amount', round((quoted_fee / src_price)::numeric, least(src_decimals, 8))::text,
                 'amountUsd', quoted_fee, 'currency', src_asset ->> 'symbol'))) as fee
    ) as v
    cross join lateral (
      select case when v.mode = 'deposit-channel'
                  then (1000000 + floor(u5 * 9000000))::bigint || '-' || (${names.srcChainflipNames})[p] || '-' || (i % 5000) end
               as channel_id,
             case when provider = 'THORCHAIN' and v.mode = 'deposit-address'
                  then '=:' || (${names.dstThorchainCodes})[p] || '.' || (dst_asset ->> 'symbol')
                       || coalesce('-' || upper(dst_asset ->> 'contract'), '') || ':' || recipient end as memo,
             -- Native value sent with the call or deposit: a token's goes as a token transfer.
             case when v.src_token = 'native' then v.src_base else '0' end as value
    ) as extra`;
}

/** Four quote calls (one per provider) per lock of the last week, as provider-metrics records them. */
async function providerCalls(sql: postgres.Sql, o: SwapDatasetOptions) {
  const days = Math.min(7, o.days);
  const calls = Math.round(((o.swaps * 2) / o.days) * days);
  const since = new Date(o.now.getTime() - days * 86_400_000).toISOString();
  await sql`
    insert into provider_calls (provider, stage, outcome, latency_ms, created_at)
    select p.provider,
           'quote',
           case when u < 0.93 then 'ok' when u < 0.97 then 'no_route' when u < 0.99 then 'unavailable' else 'rate_limited' end,
           least(10000, round(p.base * exp(0.5 * sqrt(-2 * ln(greatest(v, 1e-12))) * cos(2 * pi() * w))))::int,
           at
    from (select ${since}::timestamptz + random() * ${days} * interval '1 day' as at, random() as u, random() as v,
                 random() as w
          from generate_series(1, ${calls})) q
    cross join (values ('THORCHAIN', 380), ('RELAY', 900), ('LIFI', 1300), ('CHAINFLIP', 650)) as p(provider, base)`;
}

/** A handful of clients hitting the limits now and then over 35 days: what 429s look like, whatever the volume. */
async function rateLimitHits(sql: postgres.Sql, o: SwapDatasetOptions) {
  await sql`
    insert into rate_limit_hits (minute, route_class, client_hash, hits)
    select date_trunc('minute', ${o.now.toISOString()}::timestamptz) - m * interval '1 minute',
           (array['quote', 'catalog', 'transactions', 'execute'])[1 + (m % 4)],
           'client-' || (m % 7), 1 + (m % 23)
    from generate_series(0, 35 * 1440 - 1) m
    where m % 17 = 0
    on conflict do nothing`;
}

async function queueSamples(sql: postgres.Sql, o: SwapDatasetOptions) {
  await sql`
    insert into queue_depth_samples (sampled_at, queue, waiting, active, delayed, failed)
    select date_trunc('minute', ${o.now.toISOString()}::timestamptz) - m * interval '1 minute', q,
           (m % 5)::int, (m % 3)::int, case when q = 'tracking' then 40 + (m % 30) else m % 4 end::int, 0
    from generate_series(0, 7 * 1440 - 1) m, unnest(array['tracking', 'maintenance', 'webhooks']) q
    on conflict do nothing`;
}

/**
 * Makes the dataset. The swap trigger records what it inserts for the rollups unless the caller
 * turned triggers off for a bulk load (then it records them itself: `recordExistingSwaps`).
 */
export async function generateSwapDataset(sql: postgres.Sql, o: SwapDatasetOptions): Promise<void> {
  if (!/^[a-z]{1,8}$/.test(o.tag)) throw new Error(`swap dataset: bad tag ${o.tag}`);
  const cat = await catalogPairs(sql);
  const codes = await affiliates(sql, o.now);
  const chunk = o.chunk ?? 100_000;
  for (let first = 1; first <= o.swaps; first += chunk) {
    const last = Math.min(o.swaps, first + chunk - 1);
    await swapChunk(sql, o, cat, codes, first, last);
    o.onProgress?.(last);
    await o.afterChunk?.(new Date(o.now.getTime() - o.days * 86_400_000 + (last / o.swaps) * o.days * 86_400_000));
  }
  await providerCalls(sql, o);
  await rateLimitHits(sql, o);
  await queueSamples(sql, o);
}
