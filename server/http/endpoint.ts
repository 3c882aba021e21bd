import type { z } from 'zod';
import type { AppContext } from '../context';
import { AppError, dependencyUnavailable, toAppError } from '../errors';
import { newRequestId } from '../ids';
import { logContext } from '../log';
import { andThen, type MaybePromise } from '../maybe-promise';
import { httpRequests } from '../observability/registry';
import { countRefusal, type Limited, rateLimitClient } from '../ratelimit/apply';
import { clientHash, clientIdentity } from '../ratelimit/client';
import { addRateLimitHeaders, type RouteClass } from '../ratelimit/limiter';
import { clientFences } from '../read-context';
import { raceDeadline } from '../routing/deadline';
import type { ReadGuard } from '../transactions/bounded-reads';
import { fingerprint, IDEMPOTENCY_HEADER, isReplayable, validateIdempotencyKey } from './idempotency';
import { type FieldCoder, parseQuery, parseWith, readJsonBody } from './input';
import { type ApiRequest, type RequestUrl, requestUrl } from './request';
import {
  type ApiInterface,
  type ApiResponse,
  apiResponse,
  baseHeaders,
  type EndpointResult,
  errorBody,
  etagMatches,
  eventStreamResponse,
} from './respond';

export type { ApiInterface, ApiRequest };

export interface RequestContext {
  app: AppContext;
  request: ApiRequest;
  url: RequestUrl;
  requestId: string;
  /** `performance.now()` when the request arrived: deadlines that bound the answer count from here. */
  receivedAt: number;
  /** The JSON object body, read once under the size limit (empty for endpoints without a body). */
  body: Record<string, unknown>;
  /** Fires when the request is answered 503 at its deadline: work still running for it should stop. */
  readonly deadline: AbortSignal;
}

/** Who a public read runs for, and when it must stop. */
export const readGuardOf = (ctx: RequestContext): ReadGuard => ({
  client: clientIdentity(ctx.request, ctx.app.config),
  signal: ctx.deadline,
});

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
  /** For a Server-Sent Events endpoint: the data of each event (documents the stream). */
  events?: z.ZodType;
  /** Spec codes for body fields that fail their schema (see `swapFieldCode`). */
  bodyCodes?: FieldCoder;
  /**
   * 'domain': the handler receives the raw JSON object and validates it together with catalog
   * rules, so every problem is reported at once; `body` then only documents the shape.
   */
  bodyValidation?: 'schema' | 'domain';
  /** Honour an `Idempotency-Key` header (Stripe semantics). */
  idempotent?: boolean;
  /**
   * For a plain read: the answer when it is known without I/O (a kept one), else undefined. Must
   * start nothing; `handle` answers whenever this does not.
   */
  answerAtOnce?(
    input: { query: Q extends z.ZodType ? z.output<Q> : undefined },
    ctx: Pick<RequestContext, 'app'>,
  ): (EndpointResult & { body: R extends z.ZodType ? z.input<R> : unknown }) | undefined;
  handle(
    input: {
      query: Q extends z.ZodType ? z.output<Q> : undefined;
      body: B extends z.ZodType ? z.output<B> : undefined;
      rawBody: Record<string, unknown>;
    },
    ctx: RequestContext,
  ): MaybePromise<EndpointResult & { body: R extends z.ZodType ? z.input<R> : unknown }>;
}

export interface Endpoint {
  routeClass: RouteClass;
  hasBody: boolean;
  idempotent: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  events?: z.ZodType;
  /** An answer at once when the endpoint had one without I/O; may throw at once on invalid input. */
  run(ctx: RequestContext): MaybePromise<EndpointResult>;
  /** The definition's `answerAtOnce` for this request's query; throws at once when the query is invalid. */
  runAtOnce?(ctx: Pick<RequestContext, 'app' | 'url'>): EndpointResult | undefined;
}

/** Declares an endpoint: input schemas and one domain call. Both interfaces mount it through `serveApi`. */
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
    events: definition.events,
    run(ctx) {
      const query = definition.query ? parseQuery(definition.query, ctx.url) : undefined;
      const body =
        definition.body && definition.bodyValidation !== 'domain'
          ? parseWith(definition.body, ctx.body, definition.bodyCodes)
          : undefined;
      return definition.handle({ query, body, rawBody: ctx.body } as never, ctx);
    },
    runAtOnce: definition.answerAtOnce
      ? (ctx) => {
          const query = definition.query ? parseQuery(definition.query, ctx.url) : undefined;
          return definition.answerAtOnce?.({ query } as never, ctx);
        }
      : undefined,
  };
}

/** A replayed error keeps its `error.requestId` equal to this response's X-Request-Id. */
function withRequestId(body: unknown, requestId: string): unknown {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  return error && 'requestId' in error ? { ...(body as object), error: { ...error, requestId } } : body;
}

/** The limiter's verdict: at once when it needs no Redis, else a promise; undefined when the limiter is off or down. */
function applyRateLimit(
  app: AppContext,
  request: ApiRequest,
  target: Pick<Endpoint, 'routeClass'>,
): Limited | Promise<Limited> {
  if (!app.rateLimiter) return undefined;
  return rateLimitClient(app.rateLimiter, app, target.routeClass, clientIdentity(request, app.config));
}

const NEEDS_REDIS = Symbol('needs Redis');

/** The limiter's verdict when it needs no Redis; NEEDS_REDIS (nothing counted) when it does. */
function rateLimitAtOnce(
  app: AppContext,
  request: ApiRequest,
  target: Pick<Endpoint, 'routeClass'>,
): Limited | typeof NEEDS_REDIS {
  if (!app.rateLimiter) return undefined;
  const client = clientIdentity(request, app.config);
  try {
    const decision = app.rateLimiter.consumeAtOnce(target.routeClass, client);
    return decision ? countRefusal(app, client, decision) : NEEDS_REDIS;
  } catch {
    return NEEDS_REDIS;
  }
}

/**
 * Runs an endpoint for one interface: request id, rate limit, body, idempotency, deadline, and
 * errors mapped once with nothing internal leaked. Every log line written meanwhile carries the
 * request id; every response is counted and timed for Prometheus.
 */
export function serveApi(
  api: ApiInterface,
  app: AppContext,
  request: ApiRequest,
  target: Endpoint,
  route = 'unmatched',
  url?: RequestUrl,
): MaybePromise<ApiResponse> {
  const requestId = newRequestId();
  const started = performance.now();
  const exchange: Omit<Exchange, 'headers'> = { api, app, request, target, requestId, receivedAt: started, url };
  const served = answeredAtOnce(exchange) ?? logContext.run({ requestId }, () => serveWithId(exchange));
  return andThen(served, (response) => {
    const ms = performance.now() - started;
    httpRequests.record(route, request.method, response.status, ms / 1000);
    app.log.info({ requestId, method: request.method, route, status: response.status, ms: Math.round(ms) }, 'request');
    return response;
  });
}

/**
 * A plain read whose answer is known without I/O (a settled swap's kept status) and whose request the
 * limiter counts without Redis is answered here, outside the request's log context: nothing in it
 * runs later or logs, and under Next entering that context cost ~12 µs a request (AsyncLocalStorage
 * marks Next's own async resource, whose later promises pay for it; measured). Anything else:
 * undefined, with nothing counted or started, for `serveWithId`.
 */
function answeredAtOnce(exchange: Omit<Exchange, 'headers'>): MaybePromise<ApiResponse> | undefined {
  const { api, app, request, target, requestId, receivedAt } = exchange;
  if (!target.runAtOnce || !isPlainRead(exchange)) return undefined;
  let result: EndpointResult | undefined;
  try {
    // Parsed once: `serveWithId` reuses it when this path does not answer (a bad URL is refused there).
    exchange.url ??= requestUrl(request);
    result = target.runAtOnce({ app, url: exchange.url });
  } catch {
    return undefined;
  }
  if (!result) return undefined;
  const decision = rateLimitAtOnce(app, request, target);
  if (decision === NEEDS_REDIS) return undefined;
  const { url } = exchange;
  const x: Exchange = { api, app, request, target, requestId, receivedAt, url, headers: baseHeaders(api, requestId) };
  try {
    enforce(x, decision);
    return respond(x, result);
  } catch (caught) {
    return fail(x, toAppError(caught));
  }
}

/** One request on its way through the steps of `serveWithId`; each step adds what it learnt. */
interface Exchange {
  api: ApiInterface;
  app: AppContext;
  request: ApiRequest;
  target: Endpoint;
  requestId: string;
  receivedAt: number;
  /** The answer's headers, whatever it turns out to be: built once (`baseHeaders`) and added to in place. */
  headers: Record<string, string>;
  /** Parsed by the server or the dispatcher already, or here. */
  url?: RequestUrl;
  idempotency?: { scope: string; key: string; print: string };
}

/** A plain read answered without I/O is answered without a promise; everything else goes through `serveChange`. */
function serveWithId(exchange: Omit<Exchange, 'headers'>): MaybePromise<ApiResponse> {
  const { api, app, request, target, requestId, receivedAt, url } = exchange;
  const x: Exchange = { api, app, request, target, requestId, receivedAt, url, headers: baseHeaders(api, requestId) };
  try {
    const url = parseUrl(x);
    if (!isPlainRead(x)) return serveChange(x, url);
    const read = readWhileRateLimiting(x, url);
    return read instanceof Promise
      ? read.then(
          (result) => respond(x, result),
          (caught: unknown) => fail(x, toAppError(caught)),
        )
      : respond(x, read);
  } catch (caught) {
    return fail(x, toAppError(caught));
  }
}

async function serveChange(x: Exchange, url: RequestUrl): Promise<ApiResponse> {
  try {
    enforce(x, await applyRateLimit(x.app, x.request, x.target));
    const body = await readBody(x);
    const replay = await beginIdempotency(x, url, body);
    if (replay) return replay;
    const result = await run(x, url, body);
    await Promise.all([
      finishIdempotency(x, { status: result.status ?? 200, body: result.body }),
      fenceClientChange(x, result.status ?? 200),
    ]);
    return respond(x, result);
  } catch (caught) {
    return fail(x, toAppError(caught));
  }
}

/** A client's acknowledged lock, execute or track is in its later reads (history), which wait for its fence on a replica. */
function fenceClientChange(x: Exchange, status: number): Promise<void> | undefined {
  if (!x.app.reads.replicated || x.target.routeClass !== 'execute' || status >= 400) return undefined;
  return x.app.reads.fence(clientFences(x.app, x.request));
}

function parseUrl(x: Exchange): RequestUrl {
  if (x.url) return x.url;
  try {
    x.url = requestUrl(x.request);
    return x.url;
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Malformed request URL');
  }
}

/** Puts the limit on the answer's headers; a refusal ends the request. */
function enforce(x: Exchange, decision: Limited): void {
  if (!decision) return;
  addRateLimitHeaders(x.headers, decision);
  if (!decision.allowed) {
    throw new AppError('RATE_LIMITED', `Too many ${x.target.routeClass} requests; retry in ${decision.resetSeconds} s`);
  }
}

/** A GET with nothing to hold back: no body, no idempotency record, no stream that stays open. */
const isPlainRead = (x: Pick<Exchange, 'request' | 'target'>) =>
  (x.request.method === 'GET' || x.request.method === 'HEAD') &&
  !x.target.hasBody &&
  !x.target.idempotent &&
  !x.target.events;

/**
 * A read changes nothing: decided at once, the limiter lets it run or refuses it before any work;
 * otherwise it runs while the limiter's round trip is out, and a refusal discards its answer. The
 * limiter's verdict wins over the read's own errors.
 */
function readWhileRateLimiting(x: Exchange, url: RequestUrl): MaybePromise<EndpointResult> {
  const decision = applyRateLimit(x.app, x.request, x.target);
  if (!(decision instanceof Promise)) {
    enforce(x, decision);
    return run(x, url, {});
  }
  return Promise.allSettled([decision.then((d) => enforce(x, d)), settledLater(() => run(x, url, {}))]).then(
    ([limit, read]) => {
      if (limit.status === 'rejected') throw limit.reason;
      if (read.status === 'rejected') throw read.reason;
      return read.value;
    },
  );
}

/** `work()` as a promise, a throw included, so it can be raced or settled beside other work. */
function settledLater<T>(work: () => MaybePromise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

const readBody = (x: Exchange): Promise<Record<string, unknown>> =>
  x.target.hasBody ? readJsonBody(x.request, x.app.config.maxBodyBytes) : Promise.resolve({});

/** Starts an idempotent request, or answers with the stored response of the one it repeats. */
async function beginIdempotency(
  x: Exchange,
  url: RequestUrl,
  body: Record<string, unknown>,
): Promise<ApiResponse | undefined> {
  const { app, request } = x;
  const rawKey = x.target.idempotent ? request.headers.get(IDEMPOTENCY_HEADER) : null;
  if (rawKey === null || !app.idempotency) return undefined;
  const key = validateIdempotencyKey(rawKey);
  const scope = `${url.pathname}:${clientHash(clientIdentity(request, app.config), app.config.rateLimits.hashKey)}`;
  const print = fingerprint(body);
  // Without the store a retry could run the work twice: refuse (503, retry later) instead.
  const replay = await app.idempotency.begin(scope, key, print).catch((error) => {
    if (error instanceof AppError) throw error;
    throw dependencyUnavailable('Idempotency-Key records are unavailable; retry shortly', error);
  });
  if (replay) {
    x.headers['idempotent-replayed'] = 'true';
    return apiResponse(replay.status, withRequestId(replay.body, x.requestId), x.headers);
  }
  x.idempotency = { scope, key, print };
  return undefined;
}

/** Runs the endpoint under the request deadline; an answer it had at once needs no deadline. */
function run(x: Exchange, url: RequestUrl, body: Record<string, unknown>): MaybePromise<EndpointResult> {
  // Made only for the handlers that ask: most never do.
  let deadline: AbortController | undefined;
  const running = x.target.run({
    app: x.app,
    request: x.request,
    url,
    requestId: x.requestId,
    receivedAt: x.receivedAt,
    body,
    get deadline() {
      deadline ??= new AbortController();
      return deadline.signal;
    },
  });
  if (!(running instanceof Promise)) return running;
  return raceDeadline(
    x.app.config.requestDeadlineMs,
    () => running,
    () => {
      // An event stream that opens after its request gave up would hold its client's slot with no reader.
      running.then(
        (late) => late.events?.cancel(),
        () => {},
      );
      const error = dependencyUnavailable('The request took too long; retry shortly', undefined);
      deadline?.abort(error);
      return error;
    },
  );
}

async function finishIdempotency(x: Exchange, response: { status: number; body: unknown }) {
  if (!x.idempotency) return;
  const { scope, key, print } = x.idempotency;
  await x.app.idempotency?.finish(scope, key, print, response).catch((error) => {
    // The work ran and its answer goes out; only a retry under this key may now see 409 or run it again.
    x.app.log.error({ requestId: x.requestId, err: error, scope }, 'could not record an idempotent response');
  });
}

/** The success answer; a conditional GET whose validator still matches gets 304 and no body. */
function respond(x: Exchange, result: EndpointResult): ApiResponse {
  const status = result.status ?? 200;
  // The exchange's own headers object, built for this request: added to, not copied.
  const headers = result.headers ? Object.assign(x.headers, result.headers) : x.headers;
  if (result.events) return eventStreamResponse(result.events, headers);
  if (result.etag) headers.etag = result.etag;
  if (result.cacheControl) headers['cache-control'] = result.cacheControl;
  if (result.etag && status === 200 && etagMatches(x.request.headers.get('if-none-match'), result.etag)) {
    return apiResponse(304, null, headers);
  }
  return apiResponse(status, result.body, headers, result.json);
}

async function fail(x: Exchange, error: AppError): Promise<ApiResponse> {
  const body = errorBody(x.api, error, x.requestId);
  if (x.idempotency) {
    if (isReplayable(error.status)) await finishIdempotency(x, { status: error.status, body });
    else await x.app.idempotency?.abandon(x.idempotency.scope, x.idempotency.key).catch(() => {});
  }
  if (error.status >= 500) {
    x.app.log.error({ requestId: x.requestId, err: error.cause ?? error, path: x.url?.pathname }, error.message);
  }
  return apiResponse(error.status, body, error.headers ? Object.assign(x.headers, error.headers) : x.headers);
}
