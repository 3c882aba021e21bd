import type { AppError } from '../errors';

export const API_VERSION = '1';

export interface EndpointResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
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
