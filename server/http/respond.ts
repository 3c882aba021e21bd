import type { AppError } from '../errors';

export const API_VERSION = '1';

export interface EndpointResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** A Server-Sent Events body, sent instead of `body`. */
  events?: ReadableStream<Uint8Array>;
}

const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-Request-Id, X-API-Version, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, RateLimit, RateLimit-Policy',
};

export function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { ...BASE_HEADERS, ...headers },
  });
}

/** `no-transform` keeps compressing proxies (and Next's compression) from buffering the events. */
export function eventStreamResponse(events: ReadableStream<Uint8Array>, headers: Record<string, string>): Response {
  return new Response(events, {
    status: 200,
    headers: {
      ...BASE_HEADERS,
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
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

/** Architecture §4: the legacy interface answers `{ error: { code, message } }`. */
export function legacyErrorBody(error: AppError) {
  return { error: { code: error.code, message: error.message } };
}
