import type { z } from 'zod';
import { getCatalog } from '../catalog/snapshot';
import { clientIdentity } from '../ratelimit/client';
import { quoteRoutes } from '../routing/quote';
import { type PairFields, validateSwapBody } from '../routing/validate';
import type { RequestContext } from './endpoint';

/** Quotes a quote body of either interface for the client that sent the request. */
export async function quoteFromRequest<S extends z.ZodType<PairFields>>(
  { app, request, receivedAt }: Pick<RequestContext, 'app' | 'request' | 'receivedAt'>,
  schema: S,
  rawBody: Record<string, unknown>,
) {
  const { pair } = await validateSwapBody(app, schema, rawBody);
  const client = clientIdentity(request, app.config);
  return quoteRoutes(app, pair, (await getCatalog(app)).activeSources, client, receivedAt);
}
