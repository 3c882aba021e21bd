import { request } from 'node:http';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Error } from './support/assertions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

/** A POST whose body goes out in chunks without a declared length. */
function chunkedPost(path: string, chunks: string[]) {
  return new Promise<{ status: number; headers: Headers; body: any }>((resolve, reject) => {
    const req = request(
      `${t.baseUrl}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => {
          const headers = new Headers();
          for (const [key, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(key, value);
          resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(Buffer.concat(parts).toString()) });
        });
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('the lean server reads a request body off node:http', () => {
  it('whole, however it arrives in chunks', async () => {
    const res = await chunkedPost('/api/v1/quote/execute', ['{"lock', 'Id": "lk_', '0000000000000000000000"}']);
    expectV1Error(res, 404, 'NOT_FOUND', 'lockId');
  });

  it('and refuses one declared over the limit with 413', async () => {
    const res = await t.post('/api/v1/quote/execute', { lockId: 'x'.repeat(70_000) });
    expectV1Error(res, 413, 'VALIDATION_ERROR', 'body');
  });
});
