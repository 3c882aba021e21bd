import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../server/http/routes';
import { buildOpenApiDocument } from '../server/openapi/document';
import { startTestApp, type TestApp } from './support/app';
import {
  envelopeProblem,
  FUZZ_VALID_BODIES,
  type FuzzRequest,
  operationRequests,
  operationsOf,
  undocumentedRequests,
} from './support/fuzz-requests';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '1000', LOG_LEVEL: 'silent' });
});
afterAll(() => t?.stop());

async function check(req: FuzzRequest) {
  const res = await t.fetch(req.path, { method: req.method, headers: req.headers, body: req.body });
  const text = await res.text();
  expect(envelopeProblem(req.path, res.status, res.headers, text), `${req.method} ${req.path}`).toBeUndefined();
  return res.status;
}

const doc = buildOpenApiDocument(API_ROUTES);

describe('fuzzing every endpoint of the OpenAPI document', () => {
  for (const op of operationsOf(doc, FUZZ_VALID_BODIES)) {
    it(`${op.method} ${op.path} never answers 5xx and always with the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(operationRequests(op), async (req) => {
          await check(req);
        }),
        { numRuns: RUNS },
      );
    }, 180_000);
  }

  it('answers methods and paths the document does not list with 405 and 404 in the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(undocumentedRequests(doc), async (req) => {
        expect([404, 405]).toContain(await check(req));
      }),
      { numRuns: RUNS },
    );
  }, 180_000);
});
