import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateDatabase } from '../drizzle/migrate';
import { createDb, type DbHandle } from '../server/db';
import { foldSwapDeltas } from '../server/rollups/swaps';
import { databaseUrl, testDatabaseName, withAdmin } from './support/databases';
import { WALLETS } from './support/fixtures';
import { migrateBefore } from './support/migrations';
import { insertTransactions } from './support/seed-transactions';

const WALLET_COUNTS = '0017_wallet_counts';
const name = testDatabaseName('db', randomBytes(5).toString('hex'));
const url = databaseUrl(name);
let ctx: DbHandle;

beforeAll(async () => {
  await withAdmin((sql) => sql.unsafe(`create database "${name}"`));
  await migrateBefore(url, WALLET_COUNTS);
  ctx = createDb({ url, poolMax: 2, connectTimeoutMs: 5000 });
});
afterAll(() => ctx?.close());

const ALICE = WALLETS.evm.toLowerCase();
const BOB = WALLETS.evm2.toLowerCase();

it('an existing database gets every wallet its counts: folded swaps from the pair counts, the rest at the next fold', async () => {
  const swaps = (n: number, offset: number) =>
    Array.from({ length: n }, (_, i) => {
      const k = i + offset;
      const [wallet, recipient] = [
        [ALICE, ALICE],
        [ALICE, BOB],
        [BOB, ALICE],
        [BOB, WALLETS.bitcoin],
        [`0x${String(k).padStart(40, '0')}`, WALLETS.bitcoin],
      ][k % 5] as [string, string];
      return {
        wallet,
        recipient,
        status: (['PENDING', 'SUCCESS', 'FAILED', 'REFUND'] as const)[k % 4],
        createdAt: new Date(Date.UTC(2026, 9, 1) + k * 60_000),
      };
    });
  const folded = await insertTransactions(ctx, swaps(40, 0));
  // The fold as it was before the migration: the pair counts only.
  await ctx.sql`
    with taken as (delete from swap_rollup_deltas returning *)
    insert into wallet_pair_counts as c (wallet_key, recipient_wallet_key, status, swaps)
    select wallet_key, recipient_wallet_key, status, sum(swaps) from taken group by 1, 2, 3
    on conflict (wallet_key, recipient_wallet_key, status) do update set swaps = c.swaps + excluded.swaps`;
  await insertTransactions(ctx, swaps(13, 40));
  await ctx.sql`update transactions set status = 'SUCCESS' where id = ${folded[4]?.id ?? ''}`;
  await ctx.sql`delete from transactions where id = ${folded[0]?.id ?? ''}`;

  await migrateDatabase(url);
  await foldSwapDeltas(ctx);

  const row = (r: { wallet_key: string; status: string; swaps: string }) => `${r.wallet_key} ${r.status} ${r.swaps}`;
  const counted = await ctx.sql<{ wallet_key: string; status: string; swaps: string }[]>`
    select wallet_key, status::text, swaps::text from wallet_counts where swaps <> 0`;
  const expected = await ctx.sql<{ wallet_key: string; status: string; swaps: string }[]>`
    select wallet_key, status::text, count(*)::text as swaps from (
      select id, status, wallet_key from transactions
      union select id, status, recipient_wallet_key from transactions) sides
    group by 1, 2`;
  expect(counted.map(row).sort()).toEqual(expected.map(row).sort());
  expect(expected.filter((r) => r.wallet_key === ALICE || r.wallet_key === BOB)).toHaveLength(8);
});
