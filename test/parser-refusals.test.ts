import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { envelopeProblem } from './support/fuzz-requests';
import { oversizedHead, rawHttp } from './support/raw-http';

/** Requests node:http's parser refuses before any handler runs still get the path's error envelope. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.stop());

const problemOf = (path: string, answer: Awaited<ReturnType<typeof rawHttp>>) =>
  envelopeProblem(path, answer.status, new Headers(answer.headers), answer.body);

describe('parser refusals', () => {
  it('answers an oversized head on a v1 path with 431 in the v1 envelope', async () => {
    const answer = await rawHttp(t.baseUrl, oversizedHead('/api/v1/swap/chains'));
    expect(answer.status).toBe(431);
    expect(problemOf('/api/v1/swap/chains', answer)).toBeUndefined();
    const body = JSON.parse(answer.body);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: answer.headers['x-request-id'] });
    expect(answer.headers['x-api-version']).toBe('1');
  });

  it('answers an oversized head on a legacy path with 431 in the legacy envelope', async () => {
    const answer = await rawHttp(t.baseUrl, oversizedHead('/api/swap/chains'));
    expect(answer.status).toBe(431);
    expect(problemOf('/api/swap/chains', answer)).toBeUndefined();
    expect(Object.keys(JSON.parse(answer.body).error).sort()).toEqual(['code', 'message']);
  });

  it('answers a malformed request line with 400 in the envelope, and the server keeps serving', async () => {
    const answer = await rawHttp(t.baseUrl, 'GET /api/v1/swap/chains HTTP/1.1\r\nBad Header\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(problemOf('/api/v1/swap/chains', answer)).toBeUndefined();
    expect((await t.fetch('/api/v1/swap/chains')).status).toBe(200);
  });
});
