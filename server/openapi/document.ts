import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import type { ApiInterface, Endpoint } from '../http/endpoint';
import { perKey } from '../per-key';
import { assetSchema, chainSchema, sourceSchema } from '../schemas/catalog';
import * as responses from '../schemas/responses';
import {
  executeBodyLegacy,
  executeBodyV1,
  lockBodyLegacy,
  lockBodyV1,
  quoteBodyLegacy,
  quoteBodyV1,
} from '../schemas/swap';
import { trackBody } from '../schemas/transactions';
import { OPERATIONS, PARAM_DOCS } from './operations';
import type {
  HttpMethod,
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
} from './types';

export { QUOTE_EXAMPLE } from './operations';
export type * from './types';

const SCHEMA_REF = '#/components/schemas/';

/** Named response bodies and their parts (output side of the zod schemas). */
const RESPONSE_COMPONENTS: Record<string, z.ZodType> = {
  Pagination: responses.paginationSchema,
  Chain: chainSchema,
  Asset: assetSchema,
  Source: sourceSchema,
  ChainList: responses.chainListV1Response,
  AssetList: responses.assetListV1Response,
  SourceList: responses.sourceListV1Response,
  AmountDisplay: responses.amountDisplaySchema,
  FeeItem: responses.feeItemSchema,
  Fee: responses.feeSchema,
  FeeBreakdown: responses.feeBreakdownSchema,
  RouteStep: responses.routeStepSchema,
  Route: responses.routeSchema,
  QuoteResponse: responses.quoteV1Response,
  LockedQuote: responses.lockedQuoteSchema,
  LockResponse: responses.lockV1Response,
  ReferralStatus: responses.referralStatusSchema,
  ReferralResponse: responses.referralV1Response,
  Exec: responses.execSchema,
  ProviderResult: responses.providerResultSchema,
  QuoteSnapshot: responses.quoteSnapshotSchema,
  ExecuteResult: responses.executeResultSchema,
  ExecuteResponse: responses.executeV1Response,
  TransactionAsset: responses.transactionAssetSchema,
  RecordedFeeItem: responses.recordedFeeItemSchema,
  RecordedFee: responses.recordedFeeSchema,
  Transaction: responses.transactionSchema,
  TransactionStatus: responses.transactionStatusSchema,
  TransactionStatusResponse: responses.statusV1Response,
  TimelineEvent: responses.timelineEventSchema,
  TransactionExecution: responses.transactionExecutionSchema,
  TransactionExecutionResponse: responses.executionV1Response,
  TransactionEventsResponse: responses.eventsV1Response,
  WebhookEvent: responses.webhookEventSchema,
  TrackResult: responses.trackResultSchema,
  TrackResponse: responses.trackV1Response,
  HistoryItem: responses.historyItemSchema,
  HistoryResponse: responses.historyV1Response,
  OpenApiDocument: responses.openApiDocumentResponse,
  Problem: responses.problemSchema,
  V1Error: responses.v1ErrorSchema,
  LegacyChainList: responses.chainListLegacyResponse,
  LegacyAssetList: responses.assetListLegacyResponse,
  LegacySourceList: responses.sourceListLegacyResponse,
  LegacyQuote: responses.legacyQuoteSchema,
  LegacyQuoteResponse: responses.quoteLegacyResponse,
  LegacyLockResponse: responses.lockLegacyResponse,
  LegacyExecuteResponse: responses.executeLegacyResponse,
  LegacyHistoryResponse: responses.historyLegacyResponse,
  LegacyError: responses.legacyErrorSchema,
  Liveness: responses.livenessResponse,
  Readiness: responses.readinessResponse,
};

/** Named request bodies (input side: what a client may send). */
const REQUEST_COMPONENTS: Record<string, z.ZodType> = {
  QuoteRequest: quoteBodyV1,
  LockRequest: lockBodyV1,
  ExecuteRequest: executeBodyV1,
  TrackRequest: trackBody,
  LegacyQuoteRequest: quoteBodyLegacy,
  LegacyLockRequest: lockBodyLegacy,
  LegacyExecuteRequest: executeBodyLegacy,
};

/**
 * Statuses a code is also answered with besides its ERROR_STATUS entry: a refused or vanished
 * provider route is 409, and an oversized body is 413 VALIDATION_ERROR.
 */
const ALSO_ANSWERED_AS: Partial<Record<ErrorCode, number[]>> = {
  PROVIDER_UNAVAILABLE: [409],
  VALIDATION_ERROR: [413],
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large',
  422: 'Idempotency-Key reused with another body',
  429: 'Rate limited',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};

const HEADERS: Record<string, OpenApiHeader> = {
  'X-API-Version': { description: 'Interface version.', required: true, schema: { type: 'string', const: '1' } },
  'X-Request-Id': {
    description: 'This request’s ID; v1 error bodies repeat it as `error.requestId`.',
    required: true,
    schema: { type: 'string', pattern: '^req_[0-9A-Za-z]{22}$' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window for this route class (sent whenever the rate limiter answered).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy: `"<class>";q=<limit>;w=<window seconds>`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'IETF RateLimit: `"<class>";r=<remaining>;t=<seconds to reset>`.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer' } },
  ETag: {
    description: 'Validator of this representation; send it back as `If-None-Match` to get 304 while it holds.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: 'How long this answer may be reused; `no-store` unless the operation says otherwise.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when this is the stored response replayed for a repeated Idempotency-Key.',
    schema: { type: 'string', const: 'true' },
  },
};

const IDEMPOTENCY_KEY: OpenApiParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes retries safe (Stripe semantics). The first response for a key is stored for 24 hours by default and ' +
    'replayed, with `Idempotent-Replayed: true`, to a retry with the same key and the same body: 2xx, 404 and ' +
    '409 answers are replayed; validation errors and outages are not stored, so a corrected retry runs. The ' +
    'same key with another body answers 422 `IDEMPOTENCY_KEY_REUSED`; a retry while the first request is still ' +
    'running answers 409 `IDEMPOTENCY_IN_PROGRESS`. Keys are scoped to the path and the client.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const LAST_EVENT_ID: OpenApiParameter = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description:
    "The `id` of the last event received, when reconnecting (browsers' `EventSource` sends it by itself): " +
    'the state it carried is not sent again.',
  schema: { type: 'string', maxLength: 64 },
};

const IF_NONE_MATCH: OpenApiParameter = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An `ETag` from an earlier answer: while it still matches, the answer is 304 with no body.',
  schema: { type: 'string' },
};

const TAGS = [
  {
    name: 'v1',
    description:
      'The versioned interface under `/api/v1`. Every response carries `X-API-Version` and `X-Request-Id`; ' +
      'errors use the `{error: {code, message, field, requestId, details}}` envelope.',
  },
  {
    name: 'legacy',
    description:
      'The earlier unversioned interface under `/api`: bare bodies, `quoteId` instead of `lockId`, no status or ' +
      'track, errors as `{error: {code, message}}`.',
  },
  { name: 'health', description: 'Liveness and readiness probes for load balancers and orchestrators.' },
];

const ref = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** zod → JSON Schema for a registry of named schemas, refs pointing into components. */
function componentSchemas(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `${SCHEMA_REF}${id}`,
  });
  if ('__shared' in schemas) throw new Error('OpenAPI: a shared definition needs a name in the component tables');
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema as JsonSchema]),
  );
}

function nameOf(table: Record<string, z.ZodType>, schema: z.ZodType | undefined, what: string): string {
  const entry = Object.entries(table).find(([, s]) => s === schema);
  if (!entry) throw new Error(`OpenAPI: ${what} has no component name`);
  return entry[0];
}

function single(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _s, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonSchema;
  return json;
}

/**
 * One parameter per key of the query object: `required` from the input side (what must be sent),
 * the schema from the output side where it is representable (integers, lists of enum values), else
 * the input side (the wire strings, e.g. `true`/`1`).
 */
function queryParameters(query: z.ZodType, docs: Record<string, string>): OpenApiParameter[] {
  const input = single(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  const shape = (query as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(input.properties ?? {}).map(([name, wire]) => {
    let schema = wire;
    const field = shape[name];
    if (field) {
      try {
        schema = single(field, 'output');
      } catch {
        schema = wire;
      }
    }
    const list = schema.type === 'array';
    return {
      name,
      in: 'query',
      description: docs[name] ?? PARAM_DOCS[name] ?? name,
      required: input.required?.includes(name) ?? false,
      schema,
      ...(list ? { style: 'form' as const, explode: true } : {}),
    };
  });
}

/** Every error code an endpoint can answer, by HTTP status. */
function errorCodesByStatus(target: Endpoint, raises: ErrorCode[]): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>(['VALIDATION_ERROR', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']);
  if (target.idempotent) {
    codes.add('IDEMPOTENCY_IN_PROGRESS');
    codes.add('IDEMPOTENCY_KEY_REUSED');
  }
  for (const code of raises) codes.add(code);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const statuses = [ERROR_STATUS[code], ...(ALSO_ANSWERED_AS[code] ?? [])];
    for (const status of statuses) {
      if (status === 413 && !target.hasBody) continue;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function responseHeaders(api: ApiInterface | 'health', extra: string[] = []) {
  if (api === 'health') return undefined;
  const names = [
    ...(api === 'v1' ? ['X-API-Version'] : []),
    'X-Request-Id',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'RateLimit-Policy',
    'RateLimit',
    ...extra,
  ];
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const eventStream = (data: JsonSchema) => ({
  'text/event-stream': {
    schema: {
      type: 'string',
      description:
        'Server-Sent Events: `id: <event id>`, `event: status`, `data: <JSON, see x-event-data>`, and `: heartbeat` comments.',
    },
    'x-event-data': data,
  },
});

function operation(
  path: string,
  method: string,
  api: ApiInterface,
  target: Endpoint,
  requests: Record<string, z.ZodType>,
): OpenApiOperation {
  const key = `${method} ${path}`;
  const doc = OPERATIONS[key];
  if (!doc) throw new Error(`OpenAPI: no operation description for ${key}`);
  if (!target.response && !target.events) throw new Error(`OpenAPI: ${key} declares no response schema`);
  const replayable = api === 'v1' && target.idempotent;
  const replay = (status: number) => (replayable && [200, 404, 409].includes(status) ? ['Idempotent-Replayed'] : []);
  const errorSchema = ref(api === 'v1' ? 'V1Error' : 'LegacyError');

  const caching = doc.conditional ? ['ETag', 'Cache-Control'] : [];
  const result: OpenApiResponse = {
    description: target.events ? 'Server-Sent Events (text/event-stream); each `data:` is this object' : 'Success',
    headers: responseHeaders(api, [...replay(200), ...caching]),
    content: target.events
      ? eventStream(ref(nameOf(RESPONSE_COMPONENTS, target.events, `the events of ${key}`)))
      : json(ref(nameOf(RESPONSE_COMPONENTS, target.response, `the response of ${key}`))),
  };
  const responses: Record<string, OpenApiResponse> = { '200': result };
  if (doc.conditional) {
    responses['304'] = {
      description: 'Not modified: the `If-None-Match` validator still holds.',
      headers: result.headers,
    };
  }
  for (const [status, codes] of errorCodesByStatus(target, doc.raises ?? [])) {
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}. \`error.code\`: ${codes.join(', ')}.`,
      headers: responseHeaders(api, [...replay(status), ...(status === 429 || status === 503 ? ['Retry-After'] : [])]),
      content: json(errorSchema),
      'x-error-codes': codes,
    };
  }

  const parameters: OpenApiOperation['parameters'] = [
    ...(target.query ? queryParameters(target.query, doc.params ?? {}) : []),
    ...(replayable ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ...(doc.conditional ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : []),
    ...(target.events ? [{ $ref: '#/components/parameters/LastEventId' }] : []),
  ];
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: doc.description,
    tags: [api],
    ...(parameters.length ? { parameters } : {}),
    ...(target.body
      ? {
          requestBody: {
            required: true as const,
            content: {
              'application/json': {
                schema: ref(nameOf(requests, target.body, `the body of ${key}`)),
                ...(doc.example === undefined ? {} : { example: doc.example }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

const signatureHeader = (name: string, description: string, example: string): OpenApiParameter => ({
  name,
  in: 'header',
  description,
  required: true,
  schema: { type: 'string', examples: [example] },
});

/** What Switchyard POSTs to a registered webhook endpoint (Standard Webhooks). */
function webhooks(): OpenApiDocument['webhooks'] {
  return {
    transactionEvent: {
      post: {
        operationId: 'transactionEvent',
        summary: 'Transaction event',
        description:
          'Sent to endpoints registered on the dashboard when a swap is created, changes while pending and ' +
          'settles. At least once: deduplicate on `webhook-id`, which every retry and redelivery repeats. Verify ' +
          'the signature over the raw body with any Standard Webhooks library before parsing it.',
        tags: ['v1'],
        parameters: [
          signatureHeader('webhook-id', 'The message id, the same on every attempt', 'msg_2x7Qm9VbK4pLr8TzN1wYc3'),
          signatureHeader('webhook-timestamp', 'Unix seconds when this attempt was signed', '1767225600'),
          signatureHeader(
            'webhook-signature',
            '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the endpoint secret; during a secret ' +
              'rotation two such values separated by a space',
            'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
          ),
        ],
        requestBody: { required: true, content: json(ref('WebhookEvent')) },
        responses: {
          '200': {
            description: 'Any 2xx counts as delivered; anything else, a timeout (10 s) or a redirect is retried',
          },
        },
      },
    },
  };
}

function healthPaths(): OpenApiDocument['paths'] {
  const probe = (operationId: string, summary: string, description: string, schema: string, ready: boolean) => ({
    get: {
      operationId,
      summary,
      description,
      tags: ['health'],
      responses: {
        '200': { description: 'Up', content: json(ref(schema)) },
        ...(ready ? { '503': { description: 'Postgres or Redis is unreachable', content: json(ref(schema)) } } : {}),
      },
    },
  });
  return {
    '/api/health': probe('liveness', 'Liveness', 'Answers from the process alone.', 'Liveness', false),
    '/api/health/ready': probe(
      'readiness',
      'Readiness',
      'Also asks Postgres and Redis, each within the dependency timeout.',
      'Readiness',
      true,
    ),
  };
}

function build(routes: ApiRouteTable): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [path, route] of Object.entries(routes)) {
    const item: Partial<Record<HttpMethod, OpenApiOperation>> = {};
    for (const [method, target] of Object.entries(route.methods)) {
      if (target)
        item[method.toLowerCase() as HttpMethod] = operation(path, method, route.api, target, REQUEST_COMPONENTS);
    }
    paths[path] = item;
  }
  Object.assign(paths, healthPaths());

  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard swap routing API',
      version: '1',
      description:
        'Cross-chain and same-chain swap routes, locks, execution and transaction tracking. Two interfaces: ' +
        'the versioned one under `/api/v1` (tag `v1`) and the earlier unversioned one under `/api` (tag ' +
        '`legacy`). No API key is needed. Clients tolerate additional fields and enum values. Any other path ' +
        'answers 404 `NOT_FOUND`, and a method a path does not list answers 405 `METHOD_NOT_ALLOWED`, in the ' +
        'error envelope of the interface the path belongs to.',
      contact: { name: 'Switchyard integrations' },
    },
    servers: [{ url: '/', description: 'The deployment serving this document' }],
    tags: TAGS,
    paths,
    webhooks: webhooks(),
    components: {
      schemas: { ...componentSchemas(RESPONSE_COMPONENTS, 'output'), ...componentSchemas(REQUEST_COMPONENTS, 'input') },
      headers: HEADERS,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY, IfNoneMatch: IF_NONE_MATCH, LastEventId: LAST_EVENT_ID },
    },
  };
}

/** Every public path, its interface and its endpoints by method, as `http/routes.ts` lists them. */
export type ApiRouteTable = Record<string, { api: ApiInterface; methods: Partial<Record<string, Endpoint>> }>;

/** The OpenAPI 3.1 document of both interfaces, built once per route table from it and the zod schemas. */
export const buildOpenApiDocument: (routes: ApiRouteTable) => OpenApiDocument = perKey(build);
