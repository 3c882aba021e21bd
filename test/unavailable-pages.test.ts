import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../server/errors';
import { answerUnavailableRenders, RENDER_ID_HEADER, reportUnavailableRender } from '../server/http/unavailable-pages';

/**
 * The web server's hook, on a real node:http server standing in for Next: the handler echoes the
 * render id it was given and, when asked to, reports its render unavailable as a dashboard page does.
 */
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    answerUnavailableRenders(req, res);
    const renderId = (req.headers[RENDER_ID_HEADER] as string | undefined) ?? null;
    if (req.url?.endsWith('?down')) reportUnavailableRender(renderId);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ renderId }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = async (path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ...(await res.json()) };
};

describe('page renders that found a dependency down', () => {
  it("answer 503 with the API's Retry-After, and a page that rendered fine keeps its status", async () => {
    expect(await get('/dashboard/operations?down')).toMatchObject({
      status: 503,
      retryAfter: DEPENDENCY_RETRY_AFTER_SECONDS,
    });
    const fine = await get('/dashboard/operations');
    expect(fine).toMatchObject({ status: 200, retryAfter: null });
    expect(fine.renderId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leave API and static-file requests alone: they are not tagged, and their status is their own', async () => {
    for (const path of ['/api/v1/transaction/status?down', '/api/health?down', '/_next/static/x.js?down']) {
      expect(await get(path), path).toEqual({ status: 200, retryAfter: null, renderId: null });
    }
  });
});
