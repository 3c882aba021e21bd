import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, serveApi } from '../server/http/endpoint';
import { KEPT_QUERY_LENGTH, parseQuery, QUERIES_KEPT, readJsonBody } from '../server/http/input';
import { toFetchResponse } from '../server/http/respond';
import { historyQueryV1, statusQuery } from '../server/schemas/transactions';
import { startTestApp, type TestApp } from './support/app';
import { expectLegacyError, expectNoLeak, expectV1Error, expectV1Headers } from './support/assertions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const echo = endpoint({
  routeClass: 'quote',
  body: z.object({ name: z.string(), count: z.number().int() }),
  handle: async ({ body }) => ({ body: { data: body } }),
});

const exploding = endpoint({
  routeClass: 'catalog',
  handle: async () => {
    throw new Error('select * from secrets where password = hunter2');
  },
});

const call = async (api: 'v1' | 'legacy', ep: typeof echo, init: RequestInit = {}) => {
  const request = new Request('http://localhost/api/v1/test', { method: 'POST', ...init });
  const res = toFetchResponse(await serveApi(api, t.app, request, ep));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
};

const jsonRequest = (body: string) =>
  new Request('http://localhost/api/v1/test', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });

const json = (body: string, headers: Record<string, string> = {}) => ({
  body,
  headers: { 'content-type': 'application/json', ...headers },
});

describe('v1 wrapper', () => {
  it('passes a valid body through and sets the v1 headers', async () => {
    const res = await call('v1', echo, json('{"name":"a","count":2}'));
    expect(res.status).toBe(200);
    expectV1Headers(res.headers);
    expect(res.body).toEqual({ data: { name: 'a', count: 2 } });
  });

  it('gives every request its own id', async () => {
    const a = await call('v1', echo, json('{"name":"a","count":2}'));
    const b = await call('v1', echo, json('{"name":"a","count":2}'));
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    expectV1Error(await call('v1', echo, json('{"name": ')), 400, 'VALIDATION_ERROR', 'body');
  });

  it.each(['[]', '"text"', '42', 'null', ''])('refuses a body that is not a JSON object: %j', async (body) => {
    expectV1Error(await call('v1', echo, json(body)), 400, 'VALIDATION_ERROR', 'body');
  });

  it('refuses a wrong content type', async () => {
    const res = await call('v1', echo, { body: '{"name":"a","count":1}', headers: { 'content-type': 'text/plain' } });
    expectV1Error(res, 400, 'VALIDATION_ERROR', 'body');
    const none = await call('v1', echo, { body: '{"name":"a","count":1}' });
    expect(none.status).toBe(400);
  });

  it('refuses a body over 64 KiB with 413, whatever Content-Length claims', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(70_000), count: 1 });
    expectV1Error(await call('v1', echo, json(big)), 413, 'VALIDATION_ERROR', 'body');
    expectV1Error(await call('v1', echo, json(big, { 'content-length': '10' })), 413, 'VALIDATION_ERROR', 'body');
  });

  it('reports every validation problem together', async () => {
    const res = await call('v1', echo, json('{"name": 5, "count": "two"}'));
    expectV1Error(res, 400, 'VALIDATION_ERROR', 'name');
    expect(res.body.error.details.errors.map((e: any) => e.field)).toEqual(['name', 'count']);
    const missing = await call('v1', echo, json('{}'));
    expect(missing.body.error.details.errors.map((e: any) => e.field)).toEqual(['name', 'count']);
    expect(missing.body.error.details.errors[0].message).toBe('Required');
  });

  it('turns an unexpected error into a 500 without leaking its message', async () => {
    const res = await call('v1', exploding as never);
    expectV1Error(res, 500, 'INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });
});

describe('legacy wrapper', () => {
  it('uses the legacy error shape', async () => {
    expectLegacyError(await call('legacy', echo, json('{')), 400, 'VALIDATION_ERROR');
    const res = await call('legacy', exploding as never);
    expectLegacyError(res, 500, 'INTERNAL_ERROR');
    expect(res.headers.get('x-api-version')).toBeNull();
  });
});

describe('routing', () => {
  it('answers an unknown v1 path with the 404 envelope and headers', async () => {
    expectV1Error(await t.json('/api/v1/nope'), 404, 'NOT_FOUND');
    expectV1Error(await t.json('/api/v1'), 404, 'NOT_FOUND');
    expectV1Error(await t.post('/api/v1/swap/nothing/here', {}), 404, 'NOT_FOUND');
  });

  it('answers an unknown legacy path with the legacy 404', async () => {
    expectLegacyError(await t.json('/api/nope'), 404, 'NOT_FOUND');
  });

  it('answers a wrong method with 405 in the envelope', async () => {
    const wrong = await t.post('/api/v1/swap/chains', {});
    expectV1Error(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers.get('allow')).toBe('GET, OPTIONS');
    expectLegacyError(await t.post('/api/swap/chains', {}), 405, 'METHOD_NOT_ALLOWED');
  });

  it('answers CORS preflight for integrators in browsers', async () => {
    const res = await t.fetch('/api/v1/swap/chains', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('refuses an oversized query string', async () => {
    expectV1Error(await t.json(`/api/v1/swap/chains?junk=${'a'.repeat(5000)}`), 400, 'VALIDATION_ERROR', 'query');
  });
});

describe('health', () => {
  it('reports liveness and readiness', async () => {
    const live = await t.json('/api/health');
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await t.json('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.postgres.ok).toBe(true);
    expect(ready.body.checks.redis.ok).toBe(true);
  });

  it('answers methods other than GET on the probes with 405 in the unversioned envelope', async () => {
    for (const path of ['/api/health', '/api/health/ready']) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await t.fetch(path, { method, body: '{}' });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect(await res.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: expect.any(String) } });
      }
    }
  });
});

describe('dependencies down', () => {
  let down: TestApp;
  beforeAll(async () => {
    down = await startTestApp({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
  });
  afterAll(() => down?.stop());

  it('answers 503 SERVICE_UNAVAILABLE, never a hang, when Postgres is unreachable', async () => {
    const res = await down.json('/api/v1/swap/chains');
    expectV1Error(res, 503, 'SERVICE_UNAVAILABLE');
    expectLegacyError(await down.json('/api/swap/chains'), 503, 'SERVICE_UNAVAILABLE');
  });

  it('reports not ready, naming no internals, never a hang', async () => {
    const res = await down.json('/api/health/ready');
    expect(res.status).toBe(503);
    expect(res.body.checks.postgres.ok).toBe(false);
    expect(res.body.checks.redis.ok).toBe(false);
    expectNoLeak(res.body);
  });
});

describe('NUL characters', () => {
  it('are refused in query parameters and bodies with a 400, never reaching Postgres', async () => {
    expectV1Error(await t.json('/api/v1/swap/chains?query=a%00b'), 400, 'VALIDATION_ERROR', 'query');
    expectV1Error(await t.json('/api/v1/swap/chains?que%00ry=a'), 400, 'VALIDATION_ERROR', 'query');
    expectV1Error(await t.json('/api/v1/swap/chains?query=a&query=b%00'), 400, 'VALIDATION_ERROR', 'query');
    expectV1Error(await call('v1', echo, json('{"name":"a\\u0000","count":1}')), 400, 'VALIDATION_ERROR', 'name');
  });
});

describe('queries parsed once', () => {
  const url = (search: string) => new URL(`http://127.0.0.1/api/v1/transaction/history${search}`);
  const wallet = `0x${'ab'.repeat(20)}`;

  it('hand a repeated query string its first parse, frozen, per schema', () => {
    const search = `?addresses=${wallet}&statuses=PENDING&statuses=FAILED&perPage=5`;
    const first = parseQuery(historyQueryV1, url(search));
    expect(first).toMatchObject({ addresses: [wallet], statuses: ['PENDING', 'FAILED'], perPage: 5, page: 1 });
    expect(parseQuery(historyQueryV1, url(search))).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.statuses)).toBe(true);
    // The same string under another schema is that schema's own parse.
    expect(() => parseQuery(statusQuery, url(search))).toThrow(/transactionId or hash is required/);
    const other = parseQuery(historyQueryV1, url(`${search}&page=2`));
    expect(other).not.toBe(first);
    expect(other.page).toBe(2);
  });

  it('never keep an invalid query: it is refused every time, and its valid neighbour still parses', () => {
    for (let i = 0; i < 3; i++) expect(() => parseQuery(historyQueryV1, url('?perPage=500'))).toThrow();
    expect(parseQuery(historyQueryV1, url('?perPage=50')).perPage).toBe(50);
  });

  it('parse long queries every time, and drop the oldest past the bound', () => {
    const long = `?addresses=${wallet}&perPage=5&ref=${'a'.repeat(KEPT_QUERY_LENGTH)}`;
    expect(parseQuery(historyQueryV1, url(long))).not.toBe(parseQuery(historyQueryV1, url(long)));
    const oldest = parseQuery(historyQueryV1, url('?page=1&perPage=7'));
    for (let page = 2; page <= QUERIES_KEPT + 1; page++) parseQuery(historyQueryV1, url(`?page=${page}`));
    const again = parseQuery(historyQueryV1, url('?page=1&perPage=7'));
    expect(again).not.toBe(oldest);
    expect(again).toEqual(oldest);
  });
});

describe('query parameters named like Object.prototype members', () => {
  it('are plain unknown parameters, ignored like any other, never a 500', async () => {
    for (const query of ['toString=', 'constructor=a&constructor=b', '__proto__=x&__proto__=y', 'hasOwnProperty=1']) {
      const res = await t.fetch(`/api/v1/swap/chains?${query}`);
      expect(res.status, query).toBe(200);
    }
  });
});

describe('deeply nested JSON', () => {
  const nested = (depth: number, open: string, close: string) =>
    `{"name":"a","count":1,"deep":${open.repeat(depth)}1${close.repeat(depth)}}`;

  it.each([
    ['arrays', '[', ']'],
    ['objects', '{"a":', '}'],
  ])('answers 400, not 500, for %s nested past the depth limit', async (_kind, open, close) => {
    for (const depth of [100_000, 10_000, 100]) {
      const body = nested(depth, open, close);
      await expect(readJsonBody(jsonRequest(body), 4 * 1024 * 1024)).rejects.toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        field: 'body',
      });
    }
    expectV1Error(await call('v1', echo, json(nested(10_000, open, close))), 400, 'VALIDATION_ERROR', 'body');
  });

  it('accepts ordinary nesting', async () => {
    await expect(readJsonBody(jsonRequest(nested(8, '[', ']')), 1024)).resolves.toMatchObject({ name: 'a' });
  });
});

describe('readiness right after start', () => {
  it('waits for a Redis client that is still connecting instead of reporting it down', async () => {
    const { createAppContext } = await import('../server/context');
    const fresh = createAppContext(t.app.config);
    try {
      const { checkReadiness } = await import('../server/health');
      const readiness = await checkReadiness(fresh);
      expect(readiness.checks.redis).toMatchObject({ ok: true });
      expect(readiness.ok).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
