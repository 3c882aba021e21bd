import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { readMigrations } from '../drizzle/migrate';
import * as schema from '../drizzle/schema';
import { type BlockingForm, blockingForms, LARGE_TABLES, SMALL_TABLES } from './support/migration-safety';

/**
 * Applied before the expand/contract policy (README, "Changing the schema"): each ran once, on a
 * database far smaller than production's will be, and is never run again where it is recorded.
 */
const GRANDFATHERED: Record<string, string> = {
  '0003': 'generated fee_usd column rewrote transactions and its fee backfill ran in-migration, before launch',
  '0005': 'referral-owner backfill of locks and transactions ran in-migration, before launch',
  '0007': 'hash-key prefix indexes were rebuilt without CONCURRENTLY, before launch',
  '0009': 'substatus backfill of finished swaps ran in-migration, before launch',
  '0013': 'the deposit-deadline partial index was built without CONCURRENTLY, before launch',
  '0014': 'generated asset-id columns and the rollups’ transactions indexes were built under lock, before launch',
  '0015': 'the fee USD backfill ran in-migration, before launch',
  '0017': 'wallet counts were seeded under a SHARE lock on wallet_pair_counts, so no fold ran meanwhile',
};

const migrations = readMigrations();
const numberOf = (tag: string) => tag.slice(0, 4);

describe('every migration', () => {
  it.each(migrations.map((m) => [m.tag, m] as const))('%s takes no lock a deploy would queue behind', (tag, m) => {
    const findings = blockingForms(m).map(({ form, table }) => `${form} on ${table}`);
    if (GRANDFATHERED[numberOf(tag)]) expect(findings, 'grandfathered, so it must still be one').not.toEqual([]);
    else expect(findings).toEqual([]);
  });

  it('grandfathers only migrations that exist', () => {
    const numbers = new Set(migrations.map((m) => numberOf(m.tag)));
    expect(Object.keys(GRANDFATHERED).filter((n) => !numbers.has(n))).toEqual([]);
  });

  it('knows whether each table of the schema is large, so a new table must be classified', () => {
    const tables = Object.values(schema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableName(table as PgTable));
    expect(tables.filter((name) => !LARGE_TABLES.has(name) && !SMALL_TABLES.has(name))).toEqual([]);
  });
});

const check = (sql: string, noTransaction = false) =>
  blockingForms({ statements: sql.split('--> statement-breakpoint'), noTransaction }).map((f) => f.form);

describe('the blocking forms it refuses', () => {
  it.each<[string, BlockingForm]>([
    ['CREATE INDEX "t_idx" ON "transactions" USING btree ("created_at");', 'index without CONCURRENTLY'],
    ['create unique index t_idx on public.transaction_events (id);', 'index without CONCURRENTLY'],
    ['CREATE INDEX CONCURRENTLY "t_idx" ON "transactions" ("created_at");', 'CONCURRENTLY inside a transaction'],
    [
      'ALTER TABLE "transactions" ADD COLUMN "token" uuid DEFAULT gen_random_uuid();',
      'column added with a volatile or generated default',
    ],
    [
      'ALTER TABLE "locks" ADD COLUMN "seen" timestamptz DEFAULT clock_timestamp() NOT NULL;',
      'column added with a volatile or generated default',
    ],
    ['ALTER TABLE "transactions" ADD COLUMN "n" bigserial;', 'column added with a volatile or generated default'],
    [
      'ALTER TABLE "transactions" ADD COLUMN "x" integer GENERATED ALWAYS AS ((a)::int) STORED;',
      'column added with a volatile or generated default',
    ],
    ['ALTER TABLE "transactions" ALTER COLUMN "amount_usd" SET DATA TYPE numeric(40, 8);', 'column type change'],
    ['ALTER TABLE "swap_hourly" ALTER COLUMN "swaps" TYPE numeric;', 'column type change'],
    ['ALTER TABLE "transactions" ALTER COLUMN "substatus" SET NOT NULL;', 'constraint checked under lock'],
    ['ALTER TABLE "transactions" ADD CONSTRAINT "c" CHECK ("swaps" >= 0);', 'constraint checked under lock'],
    ['UPDATE "transactions" SET "substatus" = NULL;', 'backfill inside the migration'],
    ['LOCK TABLE "wallet_pair_counts" IN SHARE MODE;', 'explicit table lock'],
  ])('%s', (sql, form) => {
    expect(check(sql)).toEqual([form]);
  });

  it.each([
    [
      'a concurrent index in a no-transaction file',
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS "t_idx" ON "transactions" ("created_at");',
      true,
    ],
    [
      'a column with a constant or now() default',
      `ALTER TABLE "transactions" ADD COLUMN "a" text DEFAULT 'x' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "b" timestamptz DEFAULT now();`,
      false,
    ],
    ['a nullable column', 'ALTER TABLE "transaction_events" ADD COLUMN "note" text;', false],
    [
      'a constraint added NOT VALID',
      'ALTER TABLE "transactions" ADD CONSTRAINT "c" CHECK ("swaps" >= 0) NOT VALID;',
      false,
    ],
    [
      'an index on a table the same migration creates',
      `CREATE TABLE "wallet_counts" ("k" text);--> statement-breakpoint
CREATE INDEX "wallet_counts_k_idx" ON "wallet_counts" ("k");`,
      false,
    ],
    ['an index on a small table', 'CREATE INDEX "assets_x_idx" ON "assets" ("symbol");', false],
    [
      'an update inside a function body',
      `CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE "transactions" SET "stale" = true; RETURN NULL; END $$;`,
      false,
    ],
  ])('lets through %s', (_what, sql, noTransaction) => {
    expect(check(sql as string, noTransaction as boolean)).toEqual([]);
  });
});
