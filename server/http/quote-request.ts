import type { z } from 'zod';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { clientIdentity } from '../ratelimit/client';
import { quoteRoutes } from '../routing/quote';
import { type PairFields, validateSwapBody } from '../routing/validate';

/** Quotes a quote body of either interface for the client that sent `request`. */
export async function quoteFromRequest<S extends z.ZodType<PairFields>>(
  app: AppContext,
  request: Request,
  schema: S,
  rawBody: Record<string, unknown>,
) {
  const { pair } = await validateSwapBody(app, schema, rawBody);
  return quoteRoutes(app, pair, (await getCatalog(app)).activeSources, clientIdentity(request, app.config));
}
