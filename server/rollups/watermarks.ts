import type postgres from 'postgres';
import type { AppContext } from '../context';

export type RollupName = 'locks' | 'provider_calls' | 'late_swaps';

/** Every row created before this is in the named rollup; null before its first run. */
export async function rolledUntil(ctx: Pick<AppContext, 'sql'>, name: RollupName): Promise<Date | null> {
  const [row] = await ctx.sql<{ until: string }[]>`
    select rolled_until::text as until from rollup_watermarks where name = ${name}`;
  return row ? new Date(row.until) : null;
}

export async function setRolledUntil(sql: postgres.Sql | postgres.TransactionSql, name: RollupName, until: Date) {
  await sql`
    insert into rollup_watermarks (name, rolled_until) values (${name}, ${until.toISOString()})
    on conflict (name) do update set rolled_until = excluded.rolled_until`;
}
