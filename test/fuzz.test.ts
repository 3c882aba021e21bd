import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '1000', LOG_LEVEL: 'silent' });
});
afterAll(() => t?.stop());

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
    'null',
    '[]',
    '{}',
  ),
  fc.double(),
  fc.bigInt().map((b) => Number(b)),
  fc.constantFrom(null, true, false, [], {}, Number.MAX_SAFE_INTEGER, -0),
);

const GET_PARAMS: Record<string, string[]> = {
  '/api/v1/swap/chains': ['page', 'perPage', 'query', 'type'],
  '/api/v1/swap/assets': ['page', 'perPage', 'query', 'chain'],
  '/api/v1/swap/sources': ['page', 'perPage', 'type'],
  '/api/v1/transaction/status': ['transactionId', 'hash'],
  '/api/v1/transaction/history': [
    'addresses',
    'page',
    'perPage',
    'query',
    'referralCode',
    'transactionId',
    'statuses',
    'finalizedOnly',
  ],
  '/api/swap/chains': ['page', 'perPage', 'query', 'type'],
  '/api/swap/assets': ['page', 'perPage', 'query', 'chain'],
  '/api/swap/sources': ['page', 'perPage', 'type'],
  '/api/transaction/history': ['addresses', 'page', 'perPage', 'search', 'statuses', 'finalizedOnly'],
};

const VALID_BODIES: Record<string, Record<string, unknown>> = {
  '/api/v1/quote': ETH_TO_BTC,
  '/api/v1/quote/lock': { ...ETH_TO_BTC, provider: 'RELAY', referralCode: 'fuzz' },
  '/api/v1/quote/execute': { lockId: 'lk_0000000000000000000000' },
  '/api/v1/transaction/track': { transactionId: 'tx_0000000000000000000000', txHash: `0x${'a'.repeat(64)}` },
  '/api/quote': ETH_TO_BTC,
  '/api/quote/lock': { ...ETH_TO_BTC, provider: 'RELAY' },
  '/api/quote/execute': { quoteId: 'lk_0000000000000000000000' },
};

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
    '\u0000',
    '💥'.repeat(10),
  ),
);

const queryString = (known: string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 8 })), paramValue), { maxLength: 6 })
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [k, v] of pairs) params.append(k, v);
      return params.toString();
    });

const bodyFor = (valid: Record<string, unknown>) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .dictionary(fc.constantFrom(...Object.keys(valid)), junk)
        .map((patch) => JSON.stringify({ ...valid, ...patch })),
    },
    {
      weight: 1,
      arbitrary: fc
        .subarray(Object.keys(valid))
        .map((keys) => JSON.stringify(Object.fromEntries(keys.map((k) => [k, valid[k]])))),
    },
    { weight: 1, arbitrary: junk.map((v) => JSON.stringify(v) ?? '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), junk).map((o) => JSON.stringify({ ...valid, ...o })),
    },
  );

async function check(path: string, res: Response) {
  const text = await res.text();
  expect(res.status, `${path} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  const v1 = path.startsWith('/api/v1/');
  if (v1) {
    expect(res.headers.get('x-api-version')).toBe('1');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  }
  const body = JSON.parse(text);
  if (res.status >= 400) {
    if (v1) {
      expect(body.error.code).toEqual(expect.any(String));
      expect(body.error.message).toEqual(expect.any(String));
      expect(body.error.requestId).toBe(res.headers.get('x-request-id'));
      expect(Array.isArray(body.error.details.errors)).toBe(true);
    } else {
      expect(body).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  }
}

describe('fuzzing every endpoint', () => {
  for (const [path, known] of Object.entries(GET_PARAMS)) {
    it(`GET ${path} never answers 5xx and always with the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(queryString(known), async (qs) => {
          await check(path, await t.fetch(`${path}?${qs}`));
        }),
        { numRuns: RUNS },
      );
    }, 120_000);
  }

  for (const [path, valid] of Object.entries(VALID_BODIES)) {
    it(`POST ${path} never answers 5xx and always with the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyFor(valid),
          fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
          async (body, type) => {
            await check(path, await t.fetch(path, { method: 'POST', headers: { 'content-type': type }, body }));
          },
        ),
        { numRuns: RUNS },
      );
    }, 180_000);
  }
});
