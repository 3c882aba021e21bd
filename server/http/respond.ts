import type { AppError } from '../errors';

export const API_VERSION = '1';

/** The versioned interface under `/api/v1`, the older unversioned one everywhere else. */
export type ApiInterface = 'v1' | 'legacy';

export const interfaceOf = (pathname: string): ApiInterface => (/^\/api\/v1(\/|$)/.test(pathname) ? 'v1' : 'legacy');

export function interfaceHeaders(api: ApiInterface, requestId: string): Record<string, string> {
  return api === 'v1' ? { 'x-api-version': API_VERSION, 'x-request-id': requestId } : { 'x-request-id': requestId };
}

export interface EndpointResult {
  status?: number;
  body: unknown;
  /** `body` serialised already (exactly `JSON.stringify(body)`), sent instead of serialising it again. */
  json?: string;
  headers?: Record<string, string>;
  /** A Server-Sent Events body, sent instead of `body`. */
  events?: ReadableStream<Uint8Array>;
  /** A validator for this representation: conditional requests that match it answer 304 without a body. */
  etag?: string;
  /** How long shared caches may keep this answer; errors and answers without one are `no-store`. */
  cacheControl?: string;
}

/**
 * What both servers send: status, headers and the serialised body. Next turns it into a Fetch
 * `Response`; the lean server writes it straight to the socket.
 */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  /** A streamed body (Server-Sent Events), sent as it is produced instead of `body`. */
  events?: ReadableStream<Uint8Array>;
}

const EXPOSED_HEADERS =
  'X-Request-Id, X-API-Version, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, RateLimit, RateLimit-Policy, ETag';

/**
 * The headers every JSON answer starts from, as a fresh object. Written out as literals rather than
 * spread from a shared object: V8 builds a literal from its boilerplate, while an object made by
 * spreading takes a slow path for every property added to it afterwards (measured ~5 µs per answer).
 */
function baseHeaderFields(): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
}

/** An answer whose `headers` hold the base headers already (see `baseHeaders`): used as they are. */
export function apiResponse(
  status: number,
  body: unknown,
  headers: Record<string, string>,
  json?: string,
): ApiResponse {
  return { status, headers, body: status === 204 || status === 304 ? null : (json ?? JSON.stringify(body)) };
}

export const jsonApiResponse = (
  status: number,
  body: unknown,
  headers: Record<string, string>,
  json?: string,
): ApiResponse => apiResponse(status, body, Object.assign(baseHeaderFields(), headers), json);

/** Every answer's headers for one request, to be added to as the request goes: built once. */
export const baseHeaders = (api: ApiInterface, requestId: string): Record<string, string> =>
  Object.assign(baseHeaderFields(), interfaceHeaders(api, requestId));

export const toFetchResponse = (r: ApiResponse): Response =>
  new Response(r.events ?? r.body, { status: r.status, headers: r.headers });

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string>): Response =>
  toFetchResponse(jsonApiResponse(status, body, headers));

/**
 * RFC 9110 If-None-Match: `*` or any listed tag matches; the weak comparison applies to GET and
 * HEAD, so a `W/` prefix on either side is ignored.
 */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  const own = strip(etag);
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = strip(tag);
    return candidate === '*' || candidate === own;
  });
}

/** `no-transform` keeps compressing proxies (and Next's compression) from buffering the events. */
export function eventStreamResponse(events: ReadableStream<Uint8Array>, headers: Record<string, string>): ApiResponse {
  return {
    status: 200,
    headers: Object.assign(baseHeaderFields(), headers, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    }),
    body: null,
    events,
  };
}

export function v1ErrorBody(error: AppError, requestId: string) {
  return {
    error: {
      code: error.code,
      message: error.message,
      field: error.field ?? '',
      requestId,
      details: {
        errors: error.problems.length
          ? error.problems
          : [{ code: error.code, field: error.field ?? '', message: error.message }],
      },
    },
  };
}

/** The legacy interface answers `{ error: { code, message } }`, the shape its existing clients parse. */
export function legacyErrorBody(error: AppError) {
  return { error: { code: error.code, message: error.message } };
}

export const errorBody = (api: ApiInterface, error: AppError, requestId: string) =>
  api === 'v1' ? v1ErrorBody(error, requestId) : legacyErrorBody(error);
