import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testSignal } from '../../test/support/route-assets';
import { isProviderError } from './errors';
import { createUpstream } from './http';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function upstreamServing(handler: RequestListener, maxResponseBytes?: number) {
  const connections = { count: 0 };
  server = createServer(handler);
  server.on('connection', () => connections.count++);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const upstream = createUpstream({ provider: 'RELAY', baseUrl: `http://127.0.0.1:${port}`, maxResponseBytes });
  return { upstream, connections };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (isProviderError(error) ? `${error.kind}: ${error.message}` : String(error)),
  );

const anyJson = z.unknown();

describe('a provider call', () => {
  it('reuses one kept-alive connection for calls one after another', async () => {
    const { upstream, connections } = await upstreamServing((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, method: req.method }));
    });
    for (let i = 0; i < 3; i++) {
      const answer = await upstream.request({
        path: '/status',
        query: { id: i },
        schema: anyJson,
        signal: testSignal(),
      });
      expect(answer.data).toEqual({ path: `/status?id=${i}`, method: 'GET' });
    }
    expect(connections.count).toBe(1);
  });

  it('sends a JSON body with its length', async () => {
    const { upstream } = await upstreamServing((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ length: req.headers['content-length'], body: Buffer.concat(chunks).toString() }));
      });
    });
    const answer = await upstream.request({
      method: 'POST',
      path: '/quote',
      body: { amount: 'ünïcode' },
      schema: anyJson,
      signal: testSignal(),
    });
    const sent = JSON.stringify({ amount: 'ünïcode' });
    expect(answer.data).toEqual({ length: String(Buffer.byteLength(sent)), body: sent });
  });

  it('refuses a body past the cap that declared no length', async () => {
    const { upstream } = await upstreamServing((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"padding": "${'x'.repeat(600)}`);
      res.end(`${'x'.repeat(600)}"}`);
    }, 1000);
    expect(await failure(upstream.request({ path: '/big', schema: anyJson, signal: testSignal() }))).toBe(
      'BAD_RESPONSE: response larger than 1000 bytes',
    );
  });

  it('reports a connection cut in the middle of the answer as unavailable', async () => {
    const { upstream } = await upstreamServing((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial": ');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(await failure(upstream.request({ path: '/cut', schema: anyJson, signal: testSignal() }))).toBe(
      'UNAVAILABLE: connection lost',
    );
  });

  it('gives up at the deadline of its signal', async () => {
    const { upstream } = await upstreamServing(() => {});
    expect(await failure(upstream.request({ path: '/hang', schema: anyJson, signal: testSignal(50) }))).toBe(
      'UNAVAILABLE: deadline exceeded',
    );
  });

  it('gives up at once on a signal that has already fired, and never asks upstream', async () => {
    let asked = 0;
    const { upstream } = await upstreamServing(() => {
      asked++;
    });
    const signal = AbortSignal.abort();
    expect(await failure(upstream.request({ path: '/late', schema: anyJson, signal }))).toBe(
      'UNAVAILABLE: deadline exceeded',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toBe(0);
  });
});
