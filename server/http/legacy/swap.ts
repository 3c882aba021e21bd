import { getCatalog } from '../../catalog/snapshot';
import { clientIdentity } from '../../ratelimit/client';
import { executeLock } from '../../routing/execute';
import { lockRoute } from '../../routing/lock';
import { quoteRoutes } from '../../routing/quote';
import { validateSwapBody } from '../../routing/validate';
import { executeLegacyResponse, lockLegacyResponse, quoteLegacyResponse } from '../../schemas/responses';
import { executeBodyLegacy, lockBodyLegacy, quoteBodyLegacy, swapFieldCode } from '../../schemas/swap';
import { endpoint } from '../endpoint';

/** Legacy elements: `{provider, quoteId, quote, fee, exec}`; execution data only exists after execute. */
export const quoteLegacy = endpoint({
  routeClass: 'quote',
  body: quoteBodyLegacy,
  response: quoteLegacyResponse,
  bodyValidation: 'domain',
  handle: async ({ rawBody }, { app, request, receivedAt }) => {
    const { pair } = await validateSwapBody(app, quoteBodyLegacy, rawBody);
    const client = clientIdentity(request, app.config);
    const routes = await quoteRoutes(app, pair, (await getCatalog(app)).activeSources, client, receivedAt);
    return {
      body: routes.map(({ provider, routeId, fee, ...quote }) => ({
        provider,
        quoteId: routeId,
        quote: { routeId, ...quote },
        fee,
        exec: null,
      })),
    };
  },
});

export const lockLegacy = endpoint({
  routeClass: 'execute',
  body: lockBodyLegacy,
  response: lockLegacyResponse,
  bodyValidation: 'domain',
  handle: async ({ rawBody }, { app }) => {
    const { body, pair } = await validateSwapBody(app, lockBodyLegacy, rawBody);
    const { provider, lockId, expiresAt, ttlMs, ...quote } = await lockRoute(app, {
      pair,
      provider: body.provider,
      referralCode: body.referralCode,
      interface: 'legacy',
    });
    return { body: { provider, quoteId: lockId, quote, exec: null, expiresAt, ttlMs } };
  },
});

export const executeLegacy = endpoint({
  routeClass: 'execute',
  body: executeBodyLegacy,
  response: executeLegacyResponse,
  bodyCodes: swapFieldCode,
  handle: async ({ body }, { app }) => {
    const result = await executeLock(app, { lockId: body.quoteId, referralCode: body.referralCode });
    return {
      body: {
        provider: result.provider,
        providerResult: result.providerResult,
        quote: result.quote,
        exec: result.exec ?? null,
        transaction: { transaction: result.transaction },
      },
    };
  },
});
