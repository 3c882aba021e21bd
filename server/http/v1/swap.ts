import { getCatalog } from '../../catalog/snapshot';
import { clientIdentity } from '../../ratelimit/client';
import { executeLock } from '../../routing/execute';
import { lockRoute } from '../../routing/lock';
import { quoteRoutes } from '../../routing/quote';
import { validateSwapBody } from '../../routing/validate';
import { executeV1Response, lockV1Response, quoteV1Response } from '../../schemas/responses';
import { executeBodyV1, lockBodyV1, quoteBodyV1, swapFieldCode } from '../../schemas/swap';
import { endpoint } from '../endpoint';

export const quoteV1 = endpoint({
  routeClass: 'quote',
  body: quoteBodyV1,
  response: quoteV1Response,
  bodyValidation: 'domain',
  handle: async ({ rawBody }, { app, request, receivedAt }) => {
    const { pair } = await validateSwapBody(app, quoteBodyV1, rawBody);
    const client = clientIdentity(request, app.config);
    const routes = await quoteRoutes(app, pair, (await getCatalog(app)).activeSources, client, receivedAt);
    return { body: { data: routes } };
  },
});

export const lockV1 = endpoint({
  routeClass: 'execute',
  idempotent: true,
  body: lockBodyV1,
  response: lockV1Response,
  bodyValidation: 'domain',
  handle: async ({ rawBody }, { app }) => {
    const { body, pair } = await validateSwapBody(app, lockBodyV1, rawBody);
    const locked = await lockRoute(app, {
      pair,
      provider: body.provider,
      routeId: body.routeId,
      referralCode: body.referralCode,
      interface: 'v1',
    });
    return { body: { data: locked } };
  },
});

export const executeV1 = endpoint({
  routeClass: 'execute',
  idempotent: true,
  body: executeBodyV1,
  response: executeV1Response,
  bodyCodes: swapFieldCode,
  handle: async ({ body }, { app }) => ({
    body: { data: await executeLock(app, { lockId: body.lockId, referralCode: body.referralCode }) },
  }),
});
