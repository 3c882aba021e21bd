import { executeLock } from '../../routing/execute';
import { lockRoute } from '../../routing/lock';
import { validateSwapBody } from '../../routing/validate';
import { executeLegacyResponse, lockLegacyResponse, quoteLegacyResponse } from '../../schemas/responses';
import { executeBodyLegacy, lockBodyLegacy, quoteBodyLegacy, swapFieldCode } from '../../schemas/swap';
import { endpoint } from '../endpoint';
import { quoteFromRequest } from '../quote-request';

/** Legacy elements: `{provider, quoteId, quote, fee, exec}`; execution data only exists after execute. */
export const quoteLegacy = endpoint({
  routeClass: 'quote',
  body: quoteBodyLegacy,
  response: quoteLegacyResponse,
  bodyValidation: 'domain',
  handle: async ({ rawBody }, context) => {
    const routes = await quoteFromRequest(context, quoteBodyLegacy, rawBody);
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
