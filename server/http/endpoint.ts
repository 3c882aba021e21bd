import type { z } from 'zod';
import type { AppContext } from '../context';
import { AppError, toAppError } from '../errors';
import { newRequestId } from '../ids';
import { type FieldCoder, parseQuery, parseWith, readJsonBody } from './input';
import { API_VERSION, type EndpointResult, jsonResponse, legacyErrorBody, v1ErrorBody } from './respond';

export type RouteClass = 'catalog' | 'quote' | 'execute' | 'transactions';
export type ApiInterface = 'v1' | 'legacy';

export interface RequestContext {
  app: AppContext;
  request: Request;
  url: URL;
  requestId: string;
}

export interface EndpointDefinition<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  routeClass: RouteClass;
  query?: Q;
  body?: B;
  /** Spec codes for body fields that fail their schema (see `swapFieldCode`). */
  bodyCodes?: FieldCoder;
  /**
   * 'domain': the handler receives the raw JSON object and validates it together with catalog
   * rules, so every problem is reported at once; `body` then only documents the shape.
   */
  bodyValidation?: 'schema' | 'domain';
  handle(
    input: {
      query: Q extends z.ZodType ? z.output<Q> : undefined;
      body: B extends z.ZodType ? z.output<B> : undefined;
      rawBody: Record<string, unknown>;
    },
    ctx: RequestContext,
  ): Promise<EndpointResult>;
}

export type FetchHandler = (request: Request) => Promise<Response>;

export interface Endpoint {
  routeClass: RouteClass;
  run(ctx: RequestContext): Promise<EndpointResult>;
}

/** Declares an endpoint: input schemas and one domain call. Both interfaces mount it through `serve`. */
export function endpoint<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  definition: EndpointDefinition<Q, B>,
): Endpoint {
  return {
    routeClass: definition.routeClass,
    async run(ctx) {
      const query = definition.query ? parseQuery(definition.query, ctx.url) : undefined;
      const rawBody = definition.body ? await readJsonBody(ctx.request, ctx.app.config.maxBodyBytes) : {};
      const body =
        definition.body && definition.bodyValidation !== 'domain'
          ? parseWith(definition.body, rawBody, definition.bodyCodes)
          : undefined;
      return definition.handle({ query, body, rawBody } as never, ctx);
    },
  };
}

function errorResponse(api: ApiInterface, error: AppError, requestId: string, headers: Record<string, string>) {
  const body = api === 'v1' ? v1ErrorBody(error, requestId) : legacyErrorBody(error);
  return jsonResponse(error.status, body, headers);
}

export function interfaceHeaders(api: ApiInterface, requestId: string): Record<string, string> {
  return api === 'v1' ? { 'x-api-version': API_VERSION, 'x-request-id': requestId } : { 'x-request-id': requestId };
}

/** Runs an endpoint for one interface: request id, headers, errors mapped once, nothing internal leaked. */
export async function serve(
  api: ApiInterface,
  app: AppContext,
  request: Request,
  run: (ctx: RequestContext) => Promise<EndpointResult>,
): Promise<Response> {
  const requestId = newRequestId();
  const headers = interfaceHeaders(api, requestId);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return errorResponse(api, new AppError('VALIDATION_ERROR', 'Malformed request URL'), requestId, headers);
  }
  try {
    const result = await run({ app, request, url, requestId });
    return jsonResponse(result.status ?? 200, result.body, { ...headers, ...result.headers });
  } catch (caught) {
    const error = toAppError(caught);
    if (error.status >= 500) {
      app.log.error({ requestId, err: error.cause ?? error, path: url.pathname }, error.message);
    }
    return errorResponse(api, error, requestId, headers);
  }
}
