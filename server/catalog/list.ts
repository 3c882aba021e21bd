import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { assets, chains, sources } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { containsPattern } from '../db';
import { AppError } from '../errors';
import type { Asset, Chain, ListAssetsQuery, ListChainsQuery, ListSourcesQuery, Source } from '../schemas/catalog';
import { offsetOf, type Paginated } from '../schemas/common';

const chainColumns = {
  key: chains.key,
  name: chains.name,
  shortname: chains.shortname,
  chainId: chains.chainId,
  image: chains.image,
  type: chains.type,
  active: chains.active,
};

const assetColumns = {
  name: assets.name,
  symbol: assets.symbol,
  address: assets.address,
  image: assets.image,
  chain: assets.chainKey,
  isNative: assets.isNative,
  decimals: assets.decimals,
};

const sourceColumns = {
  key: sources.key,
  name: sources.name,
  image: sources.image,
  type: sources.type,
  active: sources.active,
};

async function paginate<T>(
  page: { page: number; perPage: number },
  rows: Promise<T[]>,
  total: Promise<{ value: number }[]>,
): Promise<Paginated<T>> {
  const [items, [counted]] = await Promise.all([rows, total]);
  return { items, total: counted?.value ?? 0, page: page.page, perPage: page.perPage };
}

export async function listChains(ctx: AppContext, query: ListChainsQuery): Promise<Paginated<Chain>> {
  const filters: SQL[] = [eq(chains.active, true)];
  if (query.type) filters.push(eq(chains.type, query.type));
  if (query.query) {
    const p = containsPattern(query.query);
    filters.push(or(ilike(chains.name, p), ilike(chains.shortname, p), ilike(chains.key, p)) as SQL);
  }
  const where = and(...filters);
  return paginate(
    query,
    ctx.db
      .select(chainColumns)
      .from(chains)
      .where(where)
      .orderBy(asc(chains.sortOrder), asc(chains.id))
      .limit(query.perPage)
      .offset(offsetOf(query)),
    ctx.db.select({ value: count() }).from(chains).where(where),
  );
}

async function assertChainExists(ctx: AppContext, key: string) {
  const [row] = await ctx.db.select({ key: chains.key }).from(chains).where(eq(chains.key, key)).limit(1);
  if (!row) {
    throw new AppError('VALIDATION_ERROR', `Unknown chain "${key}"`, {
      problems: [{ code: 'VALIDATION_ERROR', field: 'chain', message: `Unknown chain "${key}"` }],
    });
  }
}

export async function listAssets(ctx: AppContext, query: ListAssetsQuery): Promise<Paginated<Asset>> {
  const filters: SQL[] = [
    eq(assets.active, true),
    sql`exists (select 1 from ${chains} where ${chains.key} = ${assets.chainKey} and ${chains.active})`,
  ];
  if (query.chain) {
    await assertChainExists(ctx, query.chain);
    filters.push(eq(assets.chainKey, query.chain));
  }
  if (query.query) {
    const p = containsPattern(query.query);
    filters.push(or(ilike(assets.name, p), ilike(assets.symbol, p), ilike(assets.address, p)) as SQL);
  }
  const where = and(...filters);
  return paginate(
    query,
    ctx.db
      .select(assetColumns)
      .from(assets)
      .where(where)
      .orderBy(asc(assets.sortOrder), asc(assets.id))
      .limit(query.perPage)
      .offset(offsetOf(query)),
    ctx.db.select({ value: count() }).from(assets).where(where),
  );
}

export async function listSources(ctx: AppContext, query: ListSourcesQuery): Promise<Paginated<Source>> {
  const filters: SQL[] = [eq(sources.active, true)];
  if (query.type) filters.push(eq(sources.type, query.type));
  const where = and(...filters);
  return paginate(
    query,
    ctx.db
      .select(sourceColumns)
      .from(sources)
      .where(where)
      .orderBy(asc(sources.sortOrder), asc(sources.key))
      .limit(query.perPage)
      .offset(offsetOf(query)),
    ctx.db.select({ value: count() }).from(sources).where(where),
  );
}
