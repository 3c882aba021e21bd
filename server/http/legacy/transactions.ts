import { clientFences, onReadTarget } from '../../read-context';
import { historyLegacyResponse } from '../../schemas/responses';
import { historyQueryLegacy } from '../../schemas/transactions';
import { listPublicHistory } from '../../transactions/history';
import { endpoint, readGuardOf } from '../endpoint';

export const historyLegacy = endpoint({
  routeClass: 'transactions',
  query: historyQueryLegacy,
  response: historyLegacyResponse,
  handle: async ({ query }, ctx) => {
    const { items, page, perPage, total } = await onReadTarget(
      ctx.app,
      (on) => listPublicHistory(on, readGuardOf(ctx), query, ['addresses']),
      clientFences(ctx.app, ctx.request),
    );
    return { body: { items, page, perPage, total } };
  },
});
