import type { z } from 'zod';
import type { AppContext } from '../context';
import { AppError, toAppError } from '../errors';
import { newRequestId } from '../ids';
import { logContext } from '../log';
import { httpDuration, httpRequests } from '../observability/prometheus';
import { clientHash, clientIdentity } from '../ratelimit/client';
import { recordRateLimitHit } from '../ratelimit/hits';
import { type RateDecision, rateLimitHeaders } from '../ratelimit/limiter';
import { withDeadline } from '../routing/deadline';
import { fingerprint, IDEMPOTENCY_HEADER, isReplayable, validateIdempotencyKey } from './idempotency';
import { type FieldCoder, parseQuery, parseWith, readJsonBody } from './input';
import { API_VERSION, type EndpointResult, jsonResponse, legacyErrorBody, v1ErrorBody } from './respond';

export type RouteClass = 'catalog' | 'quote' | 'execute' | 'transactions';
export type ApiInterface = 'v1' | 'legacy';

export interface RequestContext {
  app: AppContext;
  request: Request;
  url: URL;
  requestId: string;
  /** The JSON object body, read once under the size limit (empty for endpoints without a body). */
  body: Record<string, unknown>;
}

export interface EndpointDefinition<
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType | undefined = undefined,
> {
  routeClass: RouteClass;
  query?: Q;
  body?: B;
  /** The success body: documents the response (OpenAPI) and types what `handle` returns. */
  response?: R;
  /** Spec codes for body fields that fail their schema (see `swapFieldCode`). */
  bodyCodes?: FieldCoder;
  /**
   * 'domain': the handler receives the raw JSON object and validates it together with catalog
   * rules, so every problem is reported at once; `body` then only documents the shape.
   */
  bodyValidation?: 'schema' | 'domain';
  /** Honour an `Idempotency-Key` header (Stripe semantics). */
  idempotent?: boolean;
  handle(
    input: {
      query: Q extends z.ZodType ? z.output<Q> : undefined;
      body: B extends z.ZodType ? z.output<B> : undefined;
      rawBody: Record<string, unknown>;
    },
    ctx: RequestContext,
  ): Promise<EndpointResult & { body: R extends z.ZodType ? z.input<R> : unknown }>;
}

export interface Endpoint {
  routeClass: RouteClass;
  hasBody: boolean;
  idempotent: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  run(ctx: RequestContext): Promise<EndpointResult>;
}

/** Declares an endpoint: input schemas and one domain call. Both interfaces mount it through `serve`. */
export function endpoint<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(definition: EndpointDefinition<Q, B, R>): Endpoint {
  return {
    routeClass: definition.routeClass,
    hasBody: !!definition.body,
    idempotent: !!definition.idempotent,
    query: definition.query,
    body: definition.body,
    response: definition.response,
    async run(ctx) {
      const query = definition.query ? parseQuery(definition.query, ctx.url) : undefined;
      const body =
        definition.body && definition.bodyValidation !== 'domain'
          ? parseWith(definition.body, ctx.body, definition.bodyCodes)
          : undefined;
      return definition.handle({ query, body, rawBody: ctx.body } as never, ctx);
    },
  };
}

export function interfaceHeaders(api: ApiInterface, requestId: string): Record<string, string> {
  return api === 'v1' ? { 'x-api-version': API_VERSION, 'x-request-id': requestId } : { 'x-request-id': requestId };
}

/** A replayed error keeps spec §7 rule 3: `error.requestId` matches this response's X-Request-Id. */
function withRequestId(body: unknown, requestId: string): unknown {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  return error && 'requestId' in error ? { ...(body as object), error: { ...error, requestId } } : body;
}

function errorResponse(api: ApiInterface, error: AppError, requestId: string, headers: Record<string, string>) {
  const body = api === 'v1' ? v1ErrorBody(error, requestId) : legacyErrorBody(error);
  return jsonResponse(error.status, body, { ...headers, ...error.headers });
}

async function applyRateLimit(
  app: AppContext,
  request: Request,
  target: Pick<Endpoint, 'routeClass'>,
): Promise<RateDecision | undefined> {
  if (!app.rateLimiter) return undefined;
  const client = clientIdentity(request, app.config);
  try {
    const decision = await app.rateLimiter.consume(target.routeClass, client);
    if (!decision.allowed) {
      const hashed = clientHash(client, app.config.rateLimits.hashKey);
      recordRateLimitHit(app.redis, app.config.redisPrefix, target.routeClass, hashed).catch(() => {});
    }
    return decision;
  } catch (error) {
    app.log.warn({ err: error }, 'rate limiter unavailable; request allowed');
    return undefined;
  }
}

/**
 * Runs an endpoint for one interface: request id, rate limit, body, idempotency, deadline, and
 * errors mapped once with nothing internal leaked. Every log line written meanwhile carries the
 * request id; every response is counted and timed for Prometheus.
 */
export async function serve(
  api: ApiInterface,
  app: AppContext,
  request: Request,
  target: Endpoint,
  route = 'unmatched',
): Promise<Response> {
  const requestId = newRequestId();
  const started = performance.now();
  const response = await logContext.run({ requestId }, () => serveWithId(api, app, request, target, requestId));
  const labels = { route, method: request.method };
  httpRequests.inc({ ...labels, status: String(response.status) });
  httpDuration.observe(labels, (performance.now() - started) / 1000);
  app.log.info(
    { requestId, method: request.method, route, status: response.status, ms: Math.round(performance.now() - started) },
    'request',
  );
  return response;
}

async function serveWithId(
  api: ApiInterface,
  app: AppContext,
  request: Request,
  target: Endpoint,
  requestId: string,
): Promise<Response> {
  let headers = interfaceHeaders(api, requestId);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return errorResponse(api, new AppError('VALIDATION_ERROR', 'Malformed request URL'), requestId, headers);
  }
  const decision = await applyRateLimit(app, request, target);
  if (decision) headers = { ...headers, ...rateLimitHeaders(decision) };
  if (decision && !decision.allowed) {
    const error = new AppError(
      'RATE_LIMITED',
      `Too many ${target.routeClass} requests; retry in ${decision.resetSeconds} s`,
    );
    return errorResponse(api, error, requestId, headers);
  }

  let idempotency: { scope: string; key: string; print: string } | undefined;
  try {
    const body = target.hasBody ? await readJsonBody(request, app.config.maxBodyBytes) : {};
    const rawKey = target.idempotent ? request.headers.get(IDEMPOTENCY_HEADER) : null;
    if (rawKey !== null && app.idempotency) {
      const key = validateIdempotencyKey(rawKey);
      const scope = `${url.pathname}:${clientHash(clientIdentity(request, app.config), app.config.rateLimits.hashKey)}`;
      const print = fingerprint(body);
      // Without the store a retry could run the work twice: refuse (503, retry later) instead.
      const replay = await app.idempotency.begin(scope, key, print).catch((error) => {
        if (error instanceof AppError) throw error;
        throw new AppError('SERVICE_UNAVAILABLE', 'Idempotency-Key records are unavailable; retry shortly', {
          cause: error,
        });
      });
      if (replay) {
        return jsonResponse(replay.status, withRequestId(replay.body, requestId), {
          ...headers,
          'idempotent-replayed': 'true',
        });
      }
      idempotency = { scope, key, print };
    }

    const result = await withDeadline(
      app.config.requestDeadlineMs,
      () => target.run({ app, request, url, requestId, body }),
      () => new AppError('SERVICE_UNAVAILABLE', 'The request took too long; retry shortly'),
    );
    const status = result.status ?? 200;
    if (idempotency) {
      const { scope, key, print } = idempotency;
      await app.idempotency?.finish(scope, key, print, { status, body: result.body }).catch(() => {});
    }
    return jsonResponse(status, result.body, { ...headers, ...result.headers });
  } catch (caught) {
    const error = toAppError(caught);
    if (idempotency) {
      const { scope, key, print } = idempotency;
      const store = app.idempotency;
      if (isReplayable(error.status)) {
        const body = api === 'v1' ? v1ErrorBody(error, requestId) : legacyErrorBody(error);
        await store?.finish(scope, key, print, { status: error.status, body }).catch(() => {});
      } else {
        await store?.abandon(scope, key).catch(() => {});
      }
    }
    if (error.status >= 500) {
      app.log.error({ requestId, err: error.cause ?? error, path: url.pathname }, error.message);
    }
    return errorResponse(api, error, requestId, headers);
  }
}
