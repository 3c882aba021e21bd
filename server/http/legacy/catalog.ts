import { listAssets, listChains, listSources } from '../../catalog/list';
import { listAssetsQuery, listChainsQuery, listSourcesQuery } from '../../schemas/catalog';
import type { Paginated } from '../../schemas/common';
import { endpoint } from '../endpoint';

const legacyList = <T>(key: string, { items, page, perPage, total }: Paginated<T>) => ({
  [key]: items,
  page,
  perPage,
  total,
});

export const listChainsLegacy = endpoint({
  routeClass: 'catalog',
  query: listChainsQuery,
  handle: async ({ query }, { app }) => ({ body: legacyList('chains', await listChains(app, query)) }),
});

export const listAssetsLegacy = endpoint({
  routeClass: 'catalog',
  query: listAssetsQuery,
  handle: async ({ query }, { app }) => ({ body: legacyList('assets', await listAssets(app, query)) }),
});

export const listSourcesLegacy = endpoint({
  routeClass: 'catalog',
  query: listSourcesQuery,
  handle: async ({ query }, { app }) => ({ body: legacyList('sources', await listSources(app, query)) }),
});
