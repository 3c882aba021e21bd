import { onReadTarget } from '../../read-context';
import { historyLegacyResponse } from '../../schemas/responses';
import { historyQueryLegacy } from '../../schemas/transactions';
import { listHistory } from '../../transactions/history';
import { endpoint } from '../endpoint';

export const historyLegacy = endpoint({
  routeClass: 'transactions',
  query: historyQueryLegacy,
  response: historyLegacyResponse,
  handle: async ({ query }, { app }) => {
    const { items, page, perPage, total } = await onReadTarget(app, (on) => listHistory(on, query, ['addresses']));
    return { body: { items, page, perPage, total } };
  },
});
