import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../server/errors';
import { API_ROUTES } from '../server/http/routes';
import {
  buildOpenApiDocument,
  type OpenApiHeader,
  type OpenApiOperation,
  type OpenApiParameter,
} from '../server/openapi/document';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Headers } from './support/assertions';
import { assertDocumentedResponse } from './support/contract';

const doc = buildOpenApiDocument(API_ROUTES);
const V1_HEADERS = [
  'X-API-Version',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

const operations = Object.entries(API_ROUTES).flatMap(([path, route]) =>
  Object.keys(route.methods).map((method) => {
    const operation = doc.paths[path]?.[method.toLowerCase() as 'get' | 'post'] as OpenApiOperation;
    return { path, method, api: route.api, endpoint: route.methods[method as 'GET' | 'POST'], operation };
  }),
);
const v1 = operations.filter((o) => o.api === 'v1');

const header = (ref: unknown): OpenApiHeader => {
  const name = (ref as { $ref: string }).$ref.split('/').pop() as string;
  return doc.components.headers[name] as OpenApiHeader;
};

const parameters = (operation: OpenApiOperation) =>
  (operation.parameters ?? []).map((p) =>
    '$ref' in p ? (doc.components.parameters[p.$ref.split('/').pop() as string] as OpenApiParameter) : p,
  );

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every path and method of API_ROUTES, tagged by interface', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.tags.map((t) => t.name)).toEqual(['v1', 'legacy', 'health']);
    for (const { path, method, api, operation } of operations) {
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.tags).toEqual([api]);
      expect(operation.description.length).toBeGreaterThan(0);
      const ok = operation.responses['200']?.content;
      expect(ok?.['application/json']?.schema ?? ok?.['text/event-stream']?.['x-event-data']).toHaveProperty('$ref');
    }
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents the v1 headers on every response of every v1 operation, and the error envelope', () => {
    for (const { path, method, operation } of v1) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const where = `${method} ${path} ${status}`;
        expect(Object.keys(response.headers ?? {}), where).toEqual(expect.arrayContaining(V1_HEADERS));
        expect(header(response.headers?.['X-API-Version']).required, where).toBe(true);
        expect(header(response.headers?.['X-Request-Id']).required, where).toBe(true);
        if (status === '304') {
          expect(response.content, where).toBeUndefined();
          expect(Object.keys(response.headers ?? {}), where).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
        } else if (status !== '200') {
          expect(response.content?.['application/json']?.schema, where).toEqual({
            $ref: '#/components/schemas/V1Error',
          });
          expect(response['x-error-codes']?.length, where).toBeGreaterThan(0);
        }
      }
    }
    expect(header({ $ref: '#/components/headers/X-RateLimit-Reset' }).description).toMatch(/seconds/i);
  });

  it('documents the errors each endpoint can answer, with codes consistent with ERROR_STATUS', () => {
    for (const { path, method, endpoint, operation } of operations) {
      const statuses = Object.keys(operation.responses).map(Number);
      const where = `${method} ${path}`;
      expect(statuses, where).toEqual(expect.arrayContaining([200, 400, 429, 500, 503]));
      if (endpoint?.hasBody) expect(statuses, where).toContain(413);
      if (endpoint?.idempotent) expect(statuses, where).toEqual(expect.arrayContaining([409, 422]));
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const code of response['x-error-codes'] ?? []) {
          const usual = ERROR_STATUS[code as ErrorCode];
          const alternatives: Record<string, number[]> = { PROVIDER_UNAVAILABLE: [409], VALIDATION_ERROR: [413] };
          expect([usual, ...(alternatives[code] ?? [])], `${where} ${status} ${code}`).toContain(Number(status));
        }
      }
    }
    const execute = doc.paths['/api/v1/quote/execute']?.post as OpenApiOperation;
    expect(execute.responses['404']?.['x-error-codes']).toEqual(['NOT_FOUND']);
    expect(execute.responses['409']?.['x-error-codes']).toEqual(
      expect.arrayContaining(['QUOTE_EXPIRED', 'IDEMPOTENCY_IN_PROGRESS', 'PROVIDER_UNAVAILABLE']),
    );
  });

  it('documents Idempotency-Key on v1 lock and execute, with the replay header', () => {
    for (const path of ['/api/v1/quote/lock', '/api/v1/quote/execute']) {
      const operation = doc.paths[path]?.post as OpenApiOperation;
      const key = parameters(operation).find((p) => p.name === 'Idempotency-Key');
      expect(key).toMatchObject({ in: 'header', required: false });
      expect(key?.description).toMatch(/replay/i);
      expect(key?.description).toMatch(/IDEMPOTENCY_KEY_REUSED/);
      expect(operation.responses['200']?.headers).toHaveProperty('Idempotent-Replayed');
    }
    const others = operations.filter((o) => !['/api/v1/quote/lock', '/api/v1/quote/execute'].includes(o.path));
    for (const { operation } of others) {
      expect(parameters(operation).map((p) => p.name)).not.toContain('Idempotency-Key');
    }
  });

  it('documents a required Retry-After on every 429', () => {
    for (const { path, operation } of operations) {
      const limited = operation.responses['429'];
      expect(limited?.['x-error-codes'], path).toEqual(['RATE_LIMITED']);
      expect(header(limited?.headers?.['Retry-After']).required, path).toBe(true);
    }
  });

  it('documents a required Retry-After on every 503, as every 503 sends it', () => {
    const unavailable = operations.filter(({ operation }) => operation.responses['503']);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const { path, operation } of unavailable) {
      expect(header(operation.responses['503']?.headers?.['Retry-After']).required, path).toBe(true);
    }
  });

  it('describes query parameters one per key, list parameters as exploded form arrays', () => {
    const history = doc.paths['/api/v1/transaction/history']?.get as OpenApiOperation;
    const byName = Object.fromEntries(parameters(history).map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(
      [
        'addresses',
        'cursor',
        'finalizedOnly',
        'page',
        'perPage',
        'query',
        'referralCode',
        'statuses',
        'transactionId',
      ].sort(),
    );
    expect(byName.statuses).toMatchObject({ style: 'form', explode: true, required: false, schema: { type: 'array' } });
    expect(byName.addresses).toMatchObject({ style: 'form', explode: true });
    expect(byName.perPage?.schema).toMatchObject({ maximum: 50, default: 20 });
    const legacy = doc.paths['/api/transaction/history']?.get as OpenApiOperation;
    expect(parameters(legacy).map((p) => p.name)).toContain('search');
    expect(parameters(legacy).map((p) => p.name)).not.toContain('referralCode');
  });

  it('has component schemas that compile as JSON Schema 2020-12 and request examples that satisfy them', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    for (const name of Object.keys(doc.components.schemas)) {
      expect(ajv.getSchema(`doc#/components/schemas/${name}`), name).toBeTypeOf('function');
    }
    for (const { path, method, operation } of operations) {
      const media = operation.requestBody?.content['application/json'];
      if (!media) continue;
      expect(media.example, `${method} ${path} example`).toBeDefined();
      const validate = ajv.compile({ $ref: `doc${(media.schema as { $ref: string }).$ref}` });
      expect(validate(media.example), `${method} ${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('is what client/switchyard-api.d.ts was generated from (run npm run openapi:types after changing it)', async () => {
    const generated = COMMENT_HEADER + astToString(await openapiTS(JSON.parse(JSON.stringify(doc))));
    expect(readFileSync(new URL('../client/switchyard-api.d.ts', import.meta.url), 'utf8')).toBe(generated);
  });
});

describe('the contract check used by t.json', () => {
  const v1Headers = () =>
    new Headers({
      'x-api-version': '1',
      'x-request-id': 'req_0123456789abcdefghijkl',
      'content-type': 'application/json',
    });
  const error = (code: string) => ({
    error: {
      code,
      message: 'm',
      field: '',
      requestId: 'req_0123456789abcdefghijkl',
      details: { errors: [{ code, field: '', message: 'm' }] },
    },
  });

  it('accepts a documented response', () => {
    expect(() =>
      assertDocumentedResponse('GET', '/api/v1/transaction/status?hash=x', 404, v1Headers(), error('NOT_FOUND')),
    ).not.toThrow();
  });

  it('rejects an undocumented status, an undocumented code, a missing header and a wrong body', () => {
    expect(() => assertDocumentedResponse('GET', '/api/v1/swap/chains', 404, v1Headers(), error('NOT_FOUND'))).toThrow(
      /does not list/,
    );
    expect(() =>
      assertDocumentedResponse('GET', '/api/v1/transaction/status', 404, v1Headers(), error('QUOTE_EXPIRED')),
    ).toThrow(/not documented for this status/);
    expect(() =>
      assertDocumentedResponse('GET', '/api/v1/transaction/status', 404, new Headers(), error('NOT_FOUND')),
    ).toThrow(/X-API-Version is required/);
    const body = { data: [], pagination: { page: 1, perPage: 100, total: 0, hasMore: false }, extra: 1 };
    expect(() => assertDocumentedResponse('GET', '/api/v1/swap/chains', 200, v1Headers(), body)).toThrow(
      /must NOT have additional properties \(extra\)/,
    );
    expect(() =>
      assertDocumentedResponse('POST', '/api/v1/quote', 200, v1Headers(), { data: [{ provider: 'X' }] }),
    ).toThrow(/body\/data\/0 must have required property 'routeId'/);
  });

  it('allows only the interface envelope on unknown paths and methods', () => {
    expect(() => assertDocumentedResponse('GET', '/api/v1/nope', 404, v1Headers(), error('NOT_FOUND'))).not.toThrow();
    expect(() =>
      assertDocumentedResponse('DELETE', '/api/swap/chains', 405, new Headers(), {
        error: { code: 'METHOD_NOT_ALLOWED', message: 'm' },
      }),
    ).not.toThrow();
    expect(() => assertDocumentedResponse('GET', '/api/v1/nope', 200, v1Headers(), {})).toThrow(/no such operation/);
  });
});

describe('GET /api/v1/openapi.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.stop());

  it('serves the document with the v1 headers', async () => {
    const res = await t.json('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expectV1Headers(res.headers);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('answers other methods with 405 in the v1 envelope', async () => {
    const res = await t.post('/api/v1/openapi.json', {});
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
