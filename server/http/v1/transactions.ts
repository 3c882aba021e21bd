import { toV1List } from '../../schemas/common';
import { historyV1Response, statusV1Response, trackV1Response } from '../../schemas/responses';
import { historyQueryV1, statusQuery, trackBody } from '../../schemas/transactions';
import { listHistory } from '../../transactions/history';
import { getTransactionStatus } from '../../transactions/status';
import { trackTransaction } from '../../transactions/track';
import { endpoint } from '../endpoint';

export const statusV1 = endpoint({
  routeClass: 'transactions',
  query: statusQuery,
  response: statusV1Response,
  handle: async ({ query }, { app }) => ({ body: { data: await getTransactionStatus(app, query) } }),
});

export const trackV1 = endpoint({
  routeClass: 'execute',
  body: trackBody,
  response: trackV1Response,
  handle: async ({ body }, { app }) => ({ body: { data: await trackTransaction(app, body) } }),
});

export const historyV1 = endpoint({
  routeClass: 'transactions',
  query: historyQueryV1,
  response: historyV1Response,
  handle: async ({ query }, { app }) => ({
    body: toV1List(await listHistory(app, { ...query, search: query.query })),
  }),
});
