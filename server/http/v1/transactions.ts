import { andThen } from '../../maybe-promise';
import { clientHash, clientIdentity } from '../../ratelimit/client';
import { clientFences, onReadTarget } from '../../read-context';
import {
  eventsV1Response,
  executionV1Response,
  historyV1Response,
  statusV1Response,
  trackV1Response,
  transactionStatusSchema,
} from '../../schemas/responses';
import { historyQueryV1, type StatusQuery, statusQuery, trackBody } from '../../schemas/transactions';
import { getTransactionExecution } from '../../transactions/execution';
import { listPublicHistory } from '../../transactions/history';
import {
  getTransactionStatus,
  keptTransactionStatus,
  SETTLED_BY_HASH_MAX_AGE_S,
  type VersionedStatus,
} from '../../transactions/status';
import { openTransactionStream, transactionStreamHead } from '../../transactions/stream';
import { getTransactionTimeline } from '../../transactions/timeline';
import { trackTransaction } from '../../transactions/track';
import { endpoint, readGuardOf } from '../endpoint';

export const statusV1 = endpoint({
  routeClass: 'transactions',
  query: statusQuery,
  response: statusV1Response,
  answerAtOnce: ({ query }, { app }) => {
    const kept = keptTransactionStatus(app, query);
    return kept && statusAnswer(kept, query);
  },
  handle: ({ query }, { app }) => andThen(getTransactionStatus(app, query), (status) => statusAnswer(status, query)),
});

const statusAnswer = (status: VersionedStatus, query: StatusQuery) => ({
  body: { data: status.data },
  json: status.body,
  etag: status.etag,
  cacheControl: statusCaching(status, query),
});

const SETTLED_BY_HASH_CACHING = `public, max-age=${SETTLED_BY_HASH_MAX_AGE_S}`;

/**
 * A settled transaction looked up by id never changes: shared caches and CDNs may keep it. A hash
 * can still move to another swap that the provider later vouches for, so by hash it is kept briefly.
 * Anything that can still change is revalidated with its ETag on every use.
 */
function statusCaching(status: VersionedStatus, query: StatusQuery): string {
  if (!status.settled) return 'no-cache';
  return query.transactionId ? 'public, max-age=31536000, immutable' : SETTLED_BY_HASH_CACHING;
}

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
  handle: async ({ query }, ctx) => {
    const { items, page, perPage, total, hasMore, nextCursor } = await onReadTarget(
      ctx.app,
      (on) => listPublicHistory(on, readGuardOf(ctx), { ...query, search: query.query }),
      clientFences(ctx.app, ctx.request),
    );
    return { body: { data: items, pagination: { page, perPage, total, hasMore, nextCursor } } };
  },
});

export const eventsV1 = endpoint({
  routeClass: 'transactions',
  query: statusQuery,
  response: eventsV1Response,
  handle: async ({ query }, { app }) => ({ body: { data: await getTransactionTimeline(app, query) } }),
});

export const executionV1 = endpoint({
  routeClass: 'transactions',
  query: statusQuery,
  response: executionV1Response,
  handle: async ({ query }, { app }) => ({ body: { data: await getTransactionExecution(app, query) } }),
});

export const streamV1 = endpoint({
  routeClass: 'transactions',
  query: statusQuery,
  events: transactionStatusSchema,
  handle: async ({ query }, { app, request }) => ({
    body: null,
    events:
      request.method === 'HEAD'
        ? await transactionStreamHead(app, query)
        : await openTransactionStream(app, {
            query,
            lastEventId: request.headers.get('last-event-id'),
            clientKey: clientHash(clientIdentity(request, app.config), app.config.rateLimits.hashKey),
            client: request,
          }),
  }),
});
