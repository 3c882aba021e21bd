import type postgres from 'postgres';
import type { Config } from './config';
import { createDb } from './db';
import { StartRefusedError } from './lifecycle';

/**
 * The demo dataset (`npm run db:demo`) is made-up traffic: its swaps' ids are `tx_demo` and 18 digits
 * (drizzle/seed/swap-dataset.ts with this tag). A real id is 22 random base62 characters, which are
 * practically never `demo` and 18 digits.
 */
export const DEMO_TAG = 'demo';
const DEMO_TRANSACTION_ID = /^tx_demo\d{18}$/;

export const isDemoTransactionId = (id: string) => DEMO_TRANSACTION_ID.test(id);

/** The range bounds let the primary key's index find one without scanning every swap. */
export async function holdsDemoSwaps(sql: postgres.Sql): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists (
      select 1 from transactions where id >= 'tx_demo0' and id < 'tx_demo:' and id ~ '^tx_demo[0-9]{18}$'
    ) as found`;
  return row?.found === true;
}

/**
 * A worker polling live providers never starts on a database holding the demo dataset: it would ask
 * real providers about made-up swaps (and expire or settle them from whatever they answer).
 */
export async function refuseDemoDataWhenLive(config: Config): Promise<void> {
  if (config.providersMode !== 'live') return;
  const handle = createDb({
    url: config.databaseUrl,
    poolMax: 1,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    transactionPooled: config.databasePooler === 'transaction',
  });
  try {
    if (await holdsDemoSwaps(handle.sql)) {
      throw new StartRefusedError(
        'this database holds the demo dataset (npm run db:demo), whose made-up swaps must never be polled against live providers; run with PROVIDERS_MODE=simulated, or on a database without it',
      );
    }
  } finally {
    await handle.close();
  }
}

/** What the demo dataset never goes into: a database that has anything of its own. */
const OWN_DATA = [
  ['swaps', 'transactions'],
  ['users', 'auth_user'],
  ['referral codes', 'referral_codes'],
  ['webhook endpoints', 'webhook_endpoints'],
] as const;

/** Why `npm run db:demo` must not load into this database, or undefined when it may (migrated, empty). */
export async function demoLoadRefusal(sql: postgres.Sql): Promise<string | undefined> {
  const held: string[] = [];
  for (const [what, table] of OWN_DATA) {
    const [row] = await sql<{ found: boolean }[]>`select exists (select 1 from ${sql(table)}) as found`;
    if (row?.found) held.push(what);
  }
  if (!held.length) return undefined;
  return `this database already has ${held.join(', ')}; the demo dataset goes into an empty one only`;
}
