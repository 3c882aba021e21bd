import { listAssets, listChains, listSources } from '../../catalog/list';
import { listAssetsQuery, listChainsQuery, listSourcesQuery } from '../../schemas/catalog';
import type { Paginated } from '../../schemas/common';
import { assetListLegacyResponse, chainListLegacyResponse, sourceListLegacyResponse } from '../../schemas/responses';
import { endpoint } from '../endpoint';

const legacyList = <K extends string, T>(key: K, { items, page, perPage, total }: Paginated<T>) =>
  ({ [key]: items, page, perPage, total }) as Record<K, T[]> & Omit<Paginated<T>, 'items'>;

export const listChainsLegacy = endpoint({
  routeClass: 'catalog',
  query: listChainsQuery,
  response: chainListLegacyResponse,
  handle: async ({ query }, { app }) => ({ body: legacyList('chains', await listChains(app, query)) }),
});

export const listAssetsLegacy = endpoint({
  routeClass: 'catalog',
  query: listAssetsQuery,
  response: assetListLegacyResponse,
  handle: async ({ query }, { app }) => ({ body: legacyList('assets', await listAssets(app, query)) }),
});

export const listSourcesLegacy = endpoint({
  routeClass: 'catalog',
  query: listSourcesQuery,
  response: sourceListLegacyResponse,
  handle: async ({ query }, { app }) => ({ body: legacyList('sources', await listSources(app, query)) }),
});
