import { listAssets, listChains, listSources } from '../../catalog/list';
import { listAssetsQuery, listChainsQuery, listSourcesQuery } from '../../schemas/catalog';
import { toV1List } from '../../schemas/common';
import { assetListV1Response, chainListV1Response, sourceListV1Response } from '../../schemas/responses';
import { endpoint } from '../endpoint';

export const listChainsV1 = endpoint({
  routeClass: 'catalog',
  query: listChainsQuery,
  response: chainListV1Response,
  handle: async ({ query }, { app }) => ({ body: toV1List(await listChains(app, query)) }),
});

export const listAssetsV1 = endpoint({
  routeClass: 'catalog',
  query: listAssetsQuery,
  response: assetListV1Response,
  handle: async ({ query }, { app }) => ({ body: toV1List(await listAssets(app, query)) }),
});

export const listSourcesV1 = endpoint({
  routeClass: 'catalog',
  query: listSourcesQuery,
  response: sourceListV1Response,
  handle: async ({ query }, { app }) => ({ body: toV1List(await listSources(app, query)) }),
});
