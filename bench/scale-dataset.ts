/**
 * The scale section's datasets: one database per size, made by the demo's generator
 * (drizzle/seed/swap-dataset.ts) as a bulk load: the plain indexes dropped and rebuilt after, triggers
 * off (the swaps are recorded for the rollups in one pass instead), then the rollups caught up and the
 * tables vacuumed and analyzed as autovacuum would leave them. Kept between runs with BENCH_SCALE_KEEP=1.
 */
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { ensureDatabase, migrateDatabase } from '../drizzle/migrate';
import { seedCatalog } from '../drizzle/seed/seed';
import { affiliateId, generateSwapDataset, referralCodeOf } from '../drizzle/seed/swap-dataset';
import { parseConfig } from '../server/config';
import { createDb } from '../server/db';
import { pruneUnexecutedLocks } from '../server/maintenance/retention';
import { lockSettleMs, rollupLockActivity } from '../server/rollups/locks';
import { rollUpEverything } from '../server/rollups/run';
import { recordExistingSwaps } from '../server/rollups/swaps';
import { backfillRouteTimes } from '../server/route-times/backfill';
import type { BenchSettings } from './config';

export const SCALE_TAG = 'scale';
const BIG_TABLES = ['transactions', 'locks', 'transaction_events'];
/** Kept through the load: the lock rollup and the retention of unexecuted locks read them as they go. */
const KEPT_INDEXES = ['locks_created_idx', 'locks_unexecuted_created_idx'];

/** The lopsided shapes a real year has, laid over the generator's mix (`skewSwaps`). */
export const SKEW = {
  /** The recipient of this share of all swaps. */
  hotRecipient: '0x5eed00000000000000000000000000000000a11c',
  hotRecipientShare: 0.4,
  /** A registered code on this share of all swaps, credited to its owner. */
  hotCode: referralCodeOf(1),
  hotCodeOwner: affiliateId(1),
  hotCodeShare: 0.5,
  /** Swaps from ETH on Ethereum, the asset most of them involve. */
  hotAsset: { chain: 'ethereum', symbol: 'ETH' },
  hotAssetShare: 0.6,
  /** Senders that make one swap only. */
  oneSwapWalletShare: 0.2,
  /** Terms a client may send that name nothing. */
  noMatch: ['zzzz-nothing-matches', '0x00000000000000000000000000000000deadbeef'],
} as const;

/**
 * Moves shares of the swaps (chosen by a hash of their id, so the same ones at any size) onto one
 * recipient, one referral code and one source asset, and gives another share senders of their own.
 * Run before the rollups count the swaps, or with the rollup triggers on.
 */
export async function skewSwaps(sql: postgres.Sql | postgres.TransactionSql): Promise<void> {
  const share = (salt: string, part: number) => sql.unsafe(`(abs(hashtext(id || '${salt}')) % 1000) < ${part * 1000}`);
  const [asset] = await sql<{ id: number }[]>`
    select id from assets where chain_key = ${SKEW.hotAsset.chain} and symbol = ${SKEW.hotAsset.symbol}`;
  const [template] = await sql<{ src_asset: postgres.JSONValue }[]>`
    select src_asset from transactions where src_asset_id = ${asset?.id ?? 0} limit 1`;
  if (!template) throw new Error('skewSwaps: no swap from the hot asset to copy it from');
  await sql`
    update transactions set
      recipient_wallet_address = case when ${share('r', SKEW.hotRecipientShare)}
        then ${SKEW.hotRecipient} else recipient_wallet_address end,
      recipient_wallet_key = case when ${share('r', SKEW.hotRecipientShare)}
        then ${SKEW.hotRecipient.toLowerCase()} else recipient_wallet_key end,
      referral_code = case when ${share('c', SKEW.hotCodeShare)} then ${SKEW.hotCode} else referral_code end,
      referral_owner_id = case when ${share('c', SKEW.hotCodeShare)}
        then ${SKEW.hotCodeOwner} else referral_owner_id end,
      src_chain = case when ${share('a', SKEW.hotAssetShare)} then ${SKEW.hotAsset.chain} else src_chain end,
      src_asset = case when ${share('a', SKEW.hotAssetShare)} then ${JSON.stringify(template.src_asset)}::jsonb else src_asset end,
      wallet_address = case when ${share('w', SKEW.oneSwapWalletShare)}
        then '0x' || substr(md5(id || 'one'), 1, 32) || substr(md5(id), 1, 8) else wallet_address end,
      wallet_key = case when ${share('w', SKEW.oneSwapWalletShare)}
        then '0x' || substr(md5(id || 'one'), 1, 32) || substr(md5(id), 1, 8) else wallet_key end
    where ${share('r', SKEW.hotRecipientShare)} or ${share('c', SKEW.hotCodeShare)}
       or ${share('a', SKEW.hotAssetShare)} or ${share('w', SKEW.oneSwapWalletShare)}`;
}

export interface ScaleDataset {
  swaps: number;
  url: string;
  /** Locks made (all of them counted in the rollups) and the ones the retention kept. */
  locks: { made: number; kept: number };
  /** Seconds per phase of the load that made it (the one kept, when reused). */
  phases: Record<string, number>;
  loadSeconds: number;
  madeAt: Date;
  reused: boolean;
}

export const scaleDatabaseUrl = (settings: BenchSettings, swaps: number) => {
  const url = new URL(settings.databaseUrl);
  url.pathname = `/switchyard_bench_scale_skewed_${swaps}`;
  return url.toString();
};

const admin = (url: string) => {
  const u = new URL(url);
  u.pathname = '/postgres';
  return postgres(u.toString(), { max: 1, onnotice: () => {} });
};

async function keptDataset(
  url: string,
  swaps: number,
): Promise<Omit<ScaleDataset, 'url' | 'reused' | 'locks'> | undefined> {
  const root = admin(url);
  try {
    const [exists] = await root`select 1 from pg_database where datname = ${new URL(url).pathname.slice(1)}`;
    if (!exists) return undefined;
  } finally {
    await root.end();
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ swaps: string; made_at: string; load_seconds: number; phases: Record<string, number> }[]>`
      select swaps::text, made_at::text, load_seconds, phases from bench_scale_dataset`.catch(() => []);
    if (!row || Number(row.swaps) !== swaps) return undefined;
    return { swaps, madeAt: new Date(row.made_at), loadSeconds: row.load_seconds, phases: row.phases };
  } finally {
    await sql.end();
  }
}

async function bulkLoad(url: string, swaps: number, log: (line: string) => void) {
  const phases: Record<string, number> = {};
  const timed = async <T>(phase: string, work: () => Promise<T>) => {
    const t0 = performance.now();
    const result = await work();
    phases[phase] = Math.round((performance.now() - t0) / 100) / 10;
    log(`    ${phase}: ${phases[phase]} s`);
    return result;
  };
  await timed('create, migrate, seed catalog', async () => {
    await ensureDatabase(url, { reset: true });
    await migrateDatabase(url);
    const handle = createDb({ url, poolMax: 1, connectTimeoutMs: 5000 });
    await seedCatalog(handle.db).finally(() => handle.close());
  });
  // One session: triggers (and FK checks) off, no commit wait, memory for sorts and index builds.
  const sql = postgres(url, {
    max: 1,
    onnotice: () => {},
    idle_timeout: 0,
    connection: {
      session_replication_role: 'replica',
      synchronous_commit: 'off',
      work_mem: '256MB',
      maintenance_work_mem: '1GB',
    },
  });
  try {
    const indexes = await sql<{ name: string; def: string }[]>`
      select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname::text = any(${`{${BIG_TABLES.join(',')}}`}::text[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
        and not (i.indexrelid::regclass::text = any(${`{${KEPT_INDEXES.join(',')}}`}::text[]))`;
    for (const index of indexes) await sql.unsafe(`drop index ${index.name}`);
    const now = new Date();
    const ctx = { sql, config: parseConfig({ DATABASE_URL: url }) };
    // A year as the product leaves it: each week of locks rolled up as it is made, then the unexecuted
    // ones past their retention deleted (their counts stay in the rollups) and their space reused.
    const housekeeping = async (madeUntil: Date) => {
      const settled = new Date(madeUntil.getTime() + lockSettleMs(ctx));
      while ((await rollupLockActivity(ctx, settled)).hours > 0);
      await pruneUnexecutedLocks(ctx);
      await sql`vacuum locks`;
    };
    await timed('generate rows', () =>
      generateSwapDataset(sql, {
        swaps,
        days: 365,
        now,
        tag: SCALE_TAG,
        chunk: 200_000,
        slim: true,
        afterChunk: housekeeping,
        onProgress: (made) => {
          if (made % 1_000_000 === 0 || made === swaps) log(`    ${made.toLocaleString('en-US')} swaps`);
        },
      }),
    );
    await timed('skew', () => skewSwaps(sql));
    await timed('build indexes', async () => {
      for (const index of indexes) await sql.unsafe(index.def);
    });
    await timed('rollups', async () => {
      await recordExistingSwaps(sql);
      await rollUpEverything({ sql, config: parseConfig({ DATABASE_URL: url }) }, now);
      await backfillRouteTimes({ sql, config: parseConfig({ DATABASE_URL: url }) }, now);
    });
    await timed('audit events', () => ensureAuditEvents(sql, swaps, now));
    // Every table, the counters and rollups too: the fold updates each counter cell many times, and a
    // machine with autovacuum off left the code's counter cells at 21 versions each (2,856 buffers for a
    // total that reads 348 once vacuumed: public `?query=<the code on 50 %>` grew 2.4×, bench/README run 12).
    await timed('vacuum analyze', () => sql`vacuum (analyze)`);
    const loadSeconds = Object.values(phases).reduce((a, b) => a + b, 0);
    await sql`create table bench_scale_dataset (swaps bigint, made_at timestamptz, load_seconds float8, phases jsonb)`;
    await sql`insert into bench_scale_dataset values (${swaps}, ${now.toISOString()}, ${loadSeconds}, ${sql.json(phases)})`;
    return { swaps, madeAt: now, loadSeconds, phases };
  } finally {
    await sql.end();
  }
}

/**
 * The audit log of a year beside the swaps: one event per ten swaps (a million at 10M), lopsided as staff
 * work is (one support agent makes two in five, polls-now are most of what they do). Written straight in,
 * the hash chain left aside: the bench reads pages, it does not verify.
 */
async function ensureAuditEvents(sql: postgres.Sql, swaps: number, now: Date) {
  const wanted = Math.floor(swaps / 10);
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from audit_events`;
  const have = row?.n ?? 0;
  if (have >= wanted) return;
  const stepSeconds = (365 * 86_400) / wanted;
  await sql`
    insert into audit_events (at, actor_user_id, actor_email, actor_role, action, target_type, target_id,
                              client_address, request_id, hash)
    select ${now.toISOString()}::timestamptz - (i * ${stepSeconds}::float8 * interval '1 second'),
           u, 'staff' || u || '@switchyard.test', 'support',
           case when i % 10 < 6 then 'transaction.poll_now' when i % 10 < 8 then 'auth.sign_in'
                when i % 10 = 8 then 'auth.sign_in_failed' else 'webhook.update' end,
           'transaction', 'tx_' || (i % 50000), '198.51.100.' || (i % 200), 'req_' || i, md5(i::text)
    from generate_series(${have + 1}::int, ${wanted}::int) as i,
         lateral (select case when i % 5 < 2 then 'usr_1' else 'usr_' || (i % 40) end as u) as actor`;
  await sql`vacuum (analyze) audit_events`;
}

/** Locks made (the rollups count every one, the retention's deleted ones too) and kept. */
async function lockCounts(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ made: string; kept: string }[]>`
      select (select coalesce(sum(created), 0) from lock_activity_daily)
             + (select count(*) from locks
                where created_at >= coalesce((select rolled_until from rollup_watermarks where name = 'locks'), '-infinity'))
               as made,
             (select count(*) from locks) as kept`;
    return { made: Number(row?.made ?? 0), kept: Number(row?.kept ?? 0) };
  } finally {
    await sql.end();
  }
}

/** The dataset of `swaps` swaps: the kept one when BENCH_SCALE_KEEP=1 left it, else made now. */
export async function scaleDataset(
  settings: BenchSettings,
  swaps: number,
  keep: boolean,
  log: (line: string) => void = console.log,
): Promise<ScaleDataset> {
  const url = scaleDatabaseUrl(settings, swaps);
  const kept = keep ? await keptDataset(url, swaps) : undefined;
  let made: Omit<ScaleDataset, 'url' | 'reused' | 'locks'>;
  if (kept) {
    // A kept dataset gets the migrations made since (a new counter is backfilled from the ones it has).
    await migrateDatabase(url);
    // Time has moved since the load: roll the hours that settled meanwhile, as the worker would have.
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const ctx = { sql, config: parseConfig({ DATABASE_URL: url }) };
    await rollUpEverything(ctx)
      .then(() => backfillRouteTimes(ctx))
      .then(() => ensureAuditEvents(sql, swaps, new Date()))
      // As autovacuum would leave what the catch-up rewrote (the datasets' pages the vacuum skips as all-visible).
      .then(() => sql`vacuum (analyze)`)
      .finally(() => sql.end());
    log(`    reusing the kept dataset of ${swaps.toLocaleString('en-US')} swaps made ${kept.madeAt.toISOString()}`);
    made = kept;
  } else {
    log(`    loading ${swaps.toLocaleString('en-US')} swaps`);
    made = await bulkLoad(url, swaps, log);
  }
  // Every statement planned as postgres.js's prepared statements can end up: generic, chosen for no value.
  const root = admin(url);
  await root
    .unsafe(`alter database "${new URL(url).pathname.slice(1)}" set plan_cache_mode = force_generic_plan`)
    .finally(() => root.end());
  return { ...made, url, reused: kept !== undefined, locks: await lockCounts(url) };
}

export async function dropScaleDataset(settings: BenchSettings, swaps: number) {
  const url = scaleDatabaseUrl(settings, swaps);
  const root = admin(url);
  await root
    .unsafe(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`)
    .finally(() => root.end());
}

export interface DiskUse {
  table: string;
  rowBytes: number;
  indexBytes: number;
}

/** Heap (with TOAST) and index bytes of the swap tables and the rollups. */
export async function diskUse(url: string): Promise<DiskUse[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ table: string; rows: string; indexes: string }[]>`
      select c.relname as table, pg_table_size(c.oid)::text as rows, pg_indexes_size(c.oid)::text as indexes
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and c.relname::text = any(${`{${[
          ...BIG_TABLES,
          'swap_rollup_deltas',
          'swap_counts',
          'referral_swap_counts',
          'swap_hourly',
          'affiliate_hourly',
          'affiliate_daily',
          'lock_activity_hourly',
          'lock_activity_daily',
          'provider_call_hourly',
          'provider_call_daily',
        ].join(',')}}`}::text[])`;
    return rows.map((r) => ({ table: r.table, rowBytes: Number(r.rows), indexBytes: Number(r.indexes) }));
  } finally {
    await sql.end();
  }
}
