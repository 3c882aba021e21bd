import type { AppContext } from '../context';
import { AppError } from '../errors';
import { checkReadiness } from '../health';
import { andThen, type MaybePromise } from '../maybe-promise';
import { type ApiRequest, type Endpoint, serveApi } from './endpoint';
import { listAssetsLegacy, listChainsLegacy, listSourcesLegacy } from './legacy/catalog';
import { executeLegacy, lockLegacy, quoteLegacy } from './legacy/swap';
import { historyLegacy } from './legacy/transactions';
import { type RequestUrl, requestUrl } from './request';
import {
  type ApiInterface,
  type ApiResponse,
  interfaceHeaders,
  interfaceOf,
  jsonApiResponse,
  jsonResponse,
  toFetchResponse,
} from './respond';
import { listAssetsV1, listChainsV1, listSourcesV1 } from './v1/catalog';
import { openApiV1 } from './v1/openapi';
import { referralV1 } from './v1/referral';
import { executeV1, lockV1, quoteV1 } from './v1/swap';
import { eventsV1, executionV1, historyV1, statusV1, streamV1, trackV1 } from './v1/transactions';

type Method = 'GET' | 'POST';

const failing = (routeClass: Endpoint['routeClass'], error: AppError): Endpoint => ({
  routeClass,
  hasBody: false,
  idempotent: false,
  run: async () => {
    throw error;
  },
});

/** Every public API path, its interface and its endpoints by method. */
export const API_ROUTES: Record<string, { api: ApiInterface; methods: Partial<Record<Method, Endpoint>> }> = {
  '/api/v1/swap/chains': { api: 'v1', methods: { GET: listChainsV1 } },
  '/api/v1/swap/assets': { api: 'v1', methods: { GET: listAssetsV1 } },
  '/api/v1/swap/sources': { api: 'v1', methods: { GET: listSourcesV1 } },
  '/api/v1/quote': { api: 'v1', methods: { POST: quoteV1 } },
  '/api/v1/quote/lock': { api: 'v1', methods: { POST: lockV1 } },
  '/api/v1/quote/execute': { api: 'v1', methods: { POST: executeV1 } },
  '/api/v1/transaction/status': { api: 'v1', methods: { GET: statusV1 } },
  '/api/v1/transaction/track': { api: 'v1', methods: { POST: trackV1 } },
  '/api/v1/transaction/history': { api: 'v1', methods: { GET: historyV1 } },
  '/api/v1/transaction/events': { api: 'v1', methods: { GET: eventsV1 } },
  '/api/v1/transaction/stream': { api: 'v1', methods: { GET: streamV1 } },
  '/api/v1/transaction/execution': { api: 'v1', methods: { GET: executionV1 } },
  '/api/v1/referral': { api: 'v1', methods: { GET: referralV1 } },
  '/api/v1/openapi.json': { api: 'v1', methods: { GET: openApiV1(() => API_ROUTES) } },
  '/api/swap/chains': { api: 'legacy', methods: { GET: listChainsLegacy } },
  '/api/swap/assets': { api: 'legacy', methods: { GET: listAssetsLegacy } },
  '/api/swap/sources': { api: 'legacy', methods: { GET: listSourcesLegacy } },
  '/api/quote': { api: 'legacy', methods: { POST: quoteLegacy } },
  '/api/quote/lock': { api: 'legacy', methods: { POST: lockLegacy } },
  '/api/quote/execute': { api: 'legacy', methods: { POST: executeLegacy } },
  '/api/transaction/history': { api: 'legacy', methods: { GET: historyLegacy } },
};

export type ApiPath = keyof typeof API_ROUTES;

function preflight(api: ApiInterface, allow: string): ApiResponse {
  return jsonApiResponse(204, null, {
    ...interfaceHeaders(api, ''),
    'access-control-allow-methods': allow,
    'access-control-allow-headers': 'Content-Type, Idempotency-Key, Last-Event-ID',
    'access-control-max-age': '600',
  });
}

/** Dispatches one request by path and method; unknown paths and methods answer in their interface's envelope. */
export function dispatchApiRequest(app: AppContext, request: ApiRequest, path?: string): MaybePromise<ApiResponse> {
  const url = path === undefined ? requestUrl(request) : undefined;
  const pathname = path ?? (url as RequestUrl).pathname.replace(/\/+$/, '');
  const route = API_ROUTES[pathname];
  const api = route?.api ?? interfaceOf(pathname);
  if (!route)
    return serveApi(
      api,
      app,
      request,
      failing('catalog', new AppError('NOT_FOUND', `No endpoint at ${request.method} ${pathname}`)),
    );
  const target = route.methods[(request.method === 'HEAD' ? 'GET' : request.method) as Method];
  if (target) return serveApi(api, app, request, target, pathname, url);
  const allow = Object.keys(route.methods).join(', ');
  if (request.method === 'OPTIONS') return preflight(api, `${allow}, OPTIONS`);
  return serveApi(
    api,
    app,
    request,
    failing(
      'catalog',
      new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${allow}`, {
        headers: { allow: `${allow}, OPTIONS` },
      }),
    ),
  );
}

/** `dispatchApiRequest` for Fetch-API callers (Next's route handlers). */
export const handleApiRequest = (app: AppContext, request: Request, path?: string): MaybePromise<Response> =>
  andThen(dispatchApiRequest(app, request, path), toFetchResponse);

/**
 * Liveness answers from the process alone; readiness also asks Postgres and Redis. Probes answer GET
 * and HEAD; any other method gets 405 in the unversioned envelope, as every other listed path does.
 */
export async function handleHealth(app: AppContext, probe: 'live' | 'ready', request?: ApiRequest): Promise<Response> {
  const method = request?.method ?? 'GET';
  if (request && method !== 'GET' && method !== 'HEAD') {
    const allow = 'GET, HEAD';
    if (method === 'OPTIONS') return toFetchResponse(preflight('legacy', allow));
    const error = new AppError('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}`, {
      headers: { allow },
    });
    return toFetchResponse(await serveApi('legacy', app, request, failing('catalog', error)));
  }
  if (probe === 'live') return jsonResponse(200, { status: 'ok' }, {});
  const readiness = await checkReadiness(app);
  return jsonResponse(readiness.ok ? 200 : 503, { status: readiness.ok ? 'ready' : 'unavailable', ...readiness }, {});
}
