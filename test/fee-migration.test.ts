import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateDatabase } from '../drizzle/migrate';
import { createDb, type DbHandle } from '../server/db';
import { databaseUrl, testDatabaseName, withAdmin } from './support/databases';
import { WALLETS } from './support/fixtures';
import { migrateBefore } from './support/migrations';
import { insertTransactions } from './support/seed-transactions';

const FEE_SPLIT = '0003_split_quoted_and_recorded_fee';
const name = testDatabaseName('db', randomBytes(5).toString('hex'));
const url = databaseUrl(name);
let ctx: DbHandle;

beforeAll(async () => {
  await withAdmin((sql) => sql.unsafe(`create database "${name}"`));
  await migrateBefore(url, FEE_SPLIT);
  ctx = createDb({ url, poolMax: 2, connectTimeoutMs: 5000 });
});
afterAll(() => ctx?.close());

it('moves the execute-time USD fee to quoted_fee_usd and keeps only provider-recorded fees as recorded', async () => {
  const rows = await insertTransactions(
    ctx,
    Array.from({ length: 4 }, () => ({ wallet: WALLETS.evm, recipient: WALLETS.bitcoin, createdAt: new Date() })),
  );
  const [unpolled, lifiRecorded, nativeRecorded, unpriced] = rows.map((r) => r.id);
  const set = (id: string | undefined, fields: Record<string, unknown>) =>
    ctx.sql`update transactions set ${ctx.sql(fields)} where id = ${id ?? ''}`;
  await set(unpolled, { fee_amount: '3.2', fee_currency: 'USD', fee_amount_usd: '3.2' });
  await set(lifiRecorded, {
    fee_amount: '6.25',
    fee_currency: 'USD',
    fee_amount_usd: '6.25',
    last_polled_at: new Date().toISOString(),
    quote: JSON.stringify({ fee: { usd: '15.56' } }),
  });
  await set(nativeRecorded, {
    fee_amount: '2.9995',
    fee_currency: 'USDC',
    fee_amount_usd: null,
    last_polled_at: new Date().toISOString(),
    quote: JSON.stringify({ fee: { usd: '5.25' } }),
  });
  await set(unpriced, { fee_amount: null, fee_currency: 'BTC', fee_amount_usd: null });

  await migrateDatabase(url);

  const after = await ctx.sql`
    select id, quoted_fee_usd::float8 as quoted, fee_amount as amount, fee_currency as currency,
           fee_amount_usd::float8 as recorded, fee_usd::float8 as best
    from transactions`;
  const byId = (id: string | undefined) => after.find((r) => r.id === id);
  expect(byId(unpolled)).toMatchObject({ quoted: 3.2, amount: null, currency: null, recorded: null, best: 3.2 });
  expect(byId(lifiRecorded)).toMatchObject({
    quoted: 15.56,
    amount: '6.25',
    currency: 'USD',
    recorded: 6.25,
    best: 6.25,
  });
  expect(byId(nativeRecorded)).toMatchObject({
    quoted: 5.25,
    amount: '2.9995',
    currency: 'USDC',
    recorded: null,
    best: 5.25,
  });
  expect(byId(unpriced)).toMatchObject({ quoted: null, amount: null, currency: null, recorded: null, best: null });
});
