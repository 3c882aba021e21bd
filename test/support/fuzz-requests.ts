import fc from 'fast-check';
import type { OpenApiDocument, OpenApiParameter } from '../../server/openapi/document';
import { ETH_TO_BTC } from './fixtures';

/**
 * Requests generated from the OpenAPI document with fast-check: every documented operation with odd
 * query strings, bodies patched with junk, malformed JSON, NUL characters, huge strings, unknown
 * fields, wrong content types and abusive headers; plus methods and paths the document does not list.
 * Shared by the fuzz test and the soak.
 */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzOperation {
  method: 'GET' | 'POST';
  path: string;
  queryNames: string[];
  bodyKeys: string[];
  validBody?: Record<string, unknown>;
}

/** Bodies that pass validation, so patching one field at a time reaches past the first check. */
export const FUZZ_VALID_BODIES: Record<string, Record<string, unknown>> = {
  '/api/v1/quote': ETH_TO_BTC,
  '/api/v1/quote/lock': { ...ETH_TO_BTC, provider: 'RELAY', referralCode: 'fuzz' },
  '/api/v1/quote/execute': { lockId: 'lk_0000000000000000000000' },
  '/api/v1/transaction/track': { transactionId: 'tx_0000000000000000000000', txHash: `0x${'a'.repeat(64)}` },
  '/api/quote': ETH_TO_BTC,
  '/api/quote/lock': { ...ETH_TO_BTC, provider: 'RELAY' },
  '/api/quote/execute': { quoteId: 'lk_0000000000000000000000' },
};

const HUGE = 'A'.repeat(70_000);

const junk = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e308',
    '1e-7',
    'NaN',
    'Infinity',
    '0x',
    '9'.repeat(400),
    '💥',
    '\u0000',
    'a\u0000b',
    'null',
    '[]',
    '{}',
    '__proto__',
    '\ud800',
    HUGE,
  ),
  fc.double(),
  fc.bigInt().map((b) => Number(b)),
  fc.constantFrom(null, true, false, [], {}, Number.MAX_SAFE_INTEGER, -0),
);

const paramValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer().map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1.5',
    '1e9',
    '99999999999999999999',
    'EVM',
    'SUCCESS',
    'true',
    '%',
    '%zz',
    '\u0000',
    '💥'.repeat(10),
    'x'.repeat(5000),
  ),
);

const queryString = (known: string[]) =>
  fc
    .array(
      fc.tuple(
        known.length ? fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 8 })) : fc.string(),
        paramValue,
      ),
      { maxLength: 6 },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [k, v] of pairs) params.append(k, v);
      return params.toString();
    });

const bodyFor = (valid: Record<string, unknown>, keys: string[]) => {
  const names = keys.length ? keys : Object.keys(valid);
  const patched = names.length
    ? fc.dictionary(fc.constantFrom(...names), junk).map((patch) => JSON.stringify({ ...valid, ...patch }))
    : junk.map((v) => JSON.stringify(v) ?? '');
  return fc.oneof(
    { weight: 4, arbitrary: patched },
    {
      weight: 1,
      arbitrary: fc
        .subarray(Object.keys(valid))
        .map((picked) => JSON.stringify(Object.fromEntries(picked.map((k) => [k, valid[k]])))),
    },
    { weight: 1, arbitrary: junk.map((v) => JSON.stringify(v) ?? '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', '{"amount": 1,}', '\u0000', '{"a":"\u0000"}', '') },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), junk).map((o) => JSON.stringify({ ...valid, ...o })),
    },
  );
};

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '',
);

/** Header values a Node client can send (no control characters), some long, some odd. */
const headerValue = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom('', 'x'.repeat(4000), '*/*', 'gzip, br', 'bytes=0-', '0', '-1', 'null', 'é'),
);

const abusiveHeaders = fc
  .dictionary(
    fc.constantFrom(
      'accept',
      'accept-encoding',
      'idempotency-key',
      'x-forwarded-for',
      'x-request-id',
      'origin',
      'range',
      'if-none-match',
      'x-switchyard-client',
      'user-agent',
      'x-custom',
    ),
    headerValue,
    { maxKeys: 4 },
  )
  .map((headers) => {
    // ISO-8859-1 only: what the HTTP layer can carry.
    return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace(/[^\x20-\xff]/g, '')]));
  });

function resolveRef(doc: OpenApiDocument, schema: unknown): Record<string, unknown> | undefined {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  if (!ref) return schema as Record<string, unknown> | undefined;
  return doc.components.schemas[ref.replace('#/components/schemas/', '')] as Record<string, unknown> | undefined;
}

/** Every operation of the document with its query parameter names and body keys. */
export function operationsOf(doc: OpenApiDocument, validBodies: Record<string, Record<string, unknown>> = {}) {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op) continue;
      const queryNames = (op.parameters ?? [])
        .filter((p): p is OpenApiParameter => !('$ref' in p) && p.in === 'query')
        .map((p) => p.name);
      const content = op.requestBody?.content['application/json'];
      const schema = resolveRef(doc, content?.schema);
      const bodyKeys = Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
      const example = content?.example as Record<string, unknown> | undefined;
      operations.push({
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        queryNames,
        bodyKeys,
        validBody: validBodies[path] ?? example ?? (content ? {} : undefined),
      });
    }
  }
  return operations;
}

/** Requests for one documented operation. */
export function operationRequests(op: FuzzOperation): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      qs: queryString(op.queryNames),
      body: op.validBody ? bodyFor(op.validBody, op.bodyKeys) : fc.constant(undefined),
      type: contentType,
      headers: abusiveHeaders,
    })
    .map(({ qs, body, type, headers }) => ({
      method: op.method,
      path: qs ? `${op.path}?${qs}` : op.path,
      headers: { ...headers, ...(body !== undefined && type ? { 'content-type': type } : {}) },
      ...(body !== undefined ? { body } : {}),
    }));
}

/** A method the path does not list (405) or a path the document does not have (404). */
export function undocumentedRequests(doc: OpenApiDocument): fc.Arbitrary<FuzzRequest> {
  const paths = Object.keys(doc.paths);
  const wrongMethod = fc
    .tuple(fc.constantFrom(...paths), fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'))
    .filter(([path, method]) => !(method.toLowerCase() in (doc.paths[path] ?? {})))
    .map(([path, method]) => ({
      method,
      path,
      headers: { 'content-type': 'application/json' },
      ...(method === 'GET' ? {} : { body: '{}' }),
    }));
  const segment = fc.stringMatching(/^[a-zA-Z0-9._~-]{0,12}$/);
  const unknownPath = fc
    .tuple(fc.constantFrom('/api/v1/', '/api/', '/api/v1/swap/', '/api/v1/transaction/'), segment, fc.boolean())
    .map(([prefix, rest, slash]) => `${prefix}${rest}${slash ? '/' : ''}`)
    .filter((path) => !(path.replace(/\/+$/, '') in doc.paths))
    .chain((path) =>
      fc.constantFrom('GET', 'POST', 'DELETE').map((method) => ({
        method,
        path,
        headers: {},
        ...(method === 'POST' ? { body: '{}' } : {}),
      })),
    );
  return fc.oneof(wrongMethod, unknownPath);
}

/** Everything: documented operations (weighted by how many there are) and undocumented requests. */
export function fuzzRequests(
  doc: OpenApiDocument,
  validBodies: Record<string, Record<string, unknown>> = {},
): fc.Arbitrary<FuzzRequest> {
  const documented = operationsOf(doc, validBodies).map(operationRequests);
  return fc.oneof(
    { weight: 10, arbitrary: fc.oneof(...documented) },
    { weight: 1, arbitrary: undocumentedRequests(doc) },
  );
}

/**
 * What is wrong with an answer to a fuzzed request, or undefined: a 5xx (other than a probe's 503),
 * a body that is not JSON, or a 4xx without the envelope of the path's interface.
 */
export function envelopeProblem(path: string, status: number, headers: Headers, text: string): string | undefined {
  // The path as the server sees it: clients resolve dot segments ("/api/v1/.." is "/api/").
  const pathname = new URL(path, 'http://fuzz.invalid').pathname;
  const probe = pathname.startsWith('/api/health');
  if (status >= 500 && !(probe && status === 503)) return `${status} ${text.slice(0, 200)}`;
  const v1 = /^\/api\/v1(\/|$)/.test(pathname);
  if (v1) {
    if (headers.get('x-api-version') !== '1') return 'no x-api-version: 1';
    if (!/^req_/.test(headers.get('x-request-id') ?? '')) return 'no x-request-id';
  }
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} body is not JSON: ${text.slice(0, 100)}`;
  }
  if (status < 400 || (probe && status === 503)) return undefined;
  if (v1) {
    const e = body?.error;
    if (typeof e?.code !== 'string' || typeof e?.message !== 'string') return 'v1 error without code/message';
    if (e.requestId !== headers.get('x-request-id')) return 'v1 error requestId differs from x-request-id';
    if (!Array.isArray(e.details?.errors)) return 'v1 error without details.errors';
    return undefined;
  }
  const keys = Object.keys(body ?? {});
  const e = body?.error;
  if (keys.length !== 1 || typeof e?.code !== 'string' || typeof e?.message !== 'string' || Object.keys(e).length !== 2)
    return `legacy error not {error:{code,message}}: ${text.slice(0, 100)}`;
  return undefined;
}
