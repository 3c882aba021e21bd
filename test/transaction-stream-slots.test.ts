import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { type BuiltWeb, ensureWebBuild, startBuiltWeb } from './support/built-web';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';
import { waitUntil } from './support/processes';
import { openEventStream } from './support/sse';

/**
 * A stream slot lives exactly as long as the connection that asked for it, on both servers: the lean
 * one (node:http, in this process) and the built web process (Next behind our node:http layer).
 */
const METRICS_TOKEN = 'stream-slots-metrics-token';
const PER_CLIENT = 10;
const CLIENTS = 100;

let t: TestApp;
let web: BuiltWeb;
let streamPath: string;

beforeAll(async () => {
  ensureWebBuild();
  t = await startTestApp({ METRICS_TOKEN, STREAM_MAX_PER_CLIENT: String(PER_CLIENT) });
  web = await startBuiltWeb(t);
  const executed = await executeSwap(t, ETH_TO_BTC, 'RELAY');
  streamPath = `/api/v1/transaction/stream?transactionId=${executed.transaction.id}`;
}, 300_000);

afterAll(async () => {
  await web?.stop();
  await t?.stop();
});

/** Slots every client holds, as Redis counts them for all web processes. */
async function slotsHeld(): Promise<number> {
  const keys = await t.app.redis.keys(`${t.app.config.redisPrefix}:streams:*`);
  const counts = await Promise.all(keys.map((key) => t.app.redis.zcard(key)));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** The sum of one metric's samples (those whose labels contain `labels`) in a server's Prometheus text. */
async function metric(baseUrl: string, name: string, labels = ''): Promise<number> {
  const res = await fetch(`${baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => line.includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const openStreams = (baseUrl: string) => metric(baseUrl, 'switchyard_transaction_streams_open');
const streamGetsServed = (baseUrl: string) =>
  metric(baseUrl, 'switchyard_http_requests_total', 'route="/api/v1/transaction/stream",method="GET"');

const requestHead = (method: string, path: string) => `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

function dial(baseUrl: string): Socket {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.on('error', () => {});
  return socket;
}

/** Sends a request and resolves once its answer's head has arrived; the connection is left open. */
function answerHeadOnOpenConnection(baseUrl: string, method: string, path: string) {
  return new Promise<{ status: number; head: string; socket: Socket }>((resolve, reject) => {
    const socket = dial(baseUrl);
    let received = '';
    socket.setTimeout(15_000, () => {
      socket.destroy();
      reject(new Error(`no answer head to ${method} within 15 s`));
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      const head = received.slice(0, end).toLowerCase();
      resolve({ status: Number(head.split(' ')[1]), head, socket });
    });
    socket.write(requestHead(method, path));
  });
}

/** A client that sends its request and is gone before any answer can reach it. */
function hangUpAtOnce(baseUrl: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = dial(baseUrl);
    socket.on('close', () => resolve());
    socket.on('connect', () => socket.end(requestHead('GET', path), () => socket.destroy()));
  });
}

/** A client that is gone the moment the first bytes of the answer arrive. */
function hangUpOnFirstByte(baseUrl: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = dial(baseUrl);
    socket.on('close', () => resolve());
    socket.once('data', () => socket.destroy());
    socket.write(requestHead('GET', path));
  });
}

describe.each([
  ['the lean server', () => t.baseUrl],
  ['the built web process (Next)', () => web.baseUrl],
])('stream slots on %s', (_name, baseUrlOf) => {
  it('HEAD answers the stream headers and takes no slot, even while its connections stay open', {
    timeout: 60_000,
  }, async () => {
    const baseUrl = baseUrlOf();
    const answers = await Promise.all(
      Array.from({ length: CLIENTS }, () => answerHeadOnOpenConnection(baseUrl, 'HEAD', streamPath)),
    );
    try {
      expect(answers.map((a) => a.status)).toEqual(Array(CLIENTS).fill(200));
      expect(answers[0]?.head).toMatch(/\r\ncontent-type: text\/event-stream/);
      expect(await slotsHeld()).toBe(0);
      expect(await openStreams(baseUrl)).toBe(0);

      const unknown = await answerHeadOnOpenConnection(
        baseUrl,
        'HEAD',
        '/api/v1/transaction/stream?transactionId=tx_unknown',
      );
      unknown.socket.destroy();
      expect(unknown.status).toBe(404);

      const stream = await openEventStream(`${baseUrl}${streamPath}`);
      expect(stream.response.status).toBe(200);
      stream.drop();
    } finally {
      for (const { socket } of answers) socket.destroy();
    }
    expect(await waitUntil(async () => (await slotsHeld()) === 0, { timeoutMs: 5000 })).toBe(true);
  });

  it('a client gone before or as the answer starts holds no slot once the server has served it', {
    timeout: 90_000,
  }, async () => {
    const baseUrl = baseUrlOf();
    const servedBefore = await streamGetsServed(baseUrl);
    const early = 20;
    await Promise.all([
      ...Array.from({ length: CLIENTS }, () => hangUpAtOnce(baseUrl, streamPath)),
      ...Array.from({ length: early }, () => hangUpOnFirstByte(baseUrl, streamPath)),
    ]);
    const allServed = async () => (await streamGetsServed(baseUrl)) - servedBefore >= CLIENTS + early;
    expect(await waitUntil(allServed, { timeoutMs: 60_000, intervalMs: 100 })).toBe(true);

    const nothingHeld = async () => (await slotsHeld()) === 0 && (await openStreams(baseUrl)) === 0;
    expect(await waitUntil(nothingHeld, { timeoutMs: 1000, intervalMs: 50 })).toBe(true);

    const full = await Promise.all(
      Array.from({ length: PER_CLIENT }, () => answerHeadOnOpenConnection(baseUrl, 'GET', streamPath)),
    );
    try {
      expect(full.map((a) => a.status)).toEqual(Array(PER_CLIENT).fill(200));
    } finally {
      for (const { socket } of full) socket.destroy();
    }
    expect(await waitUntil(nothingHeld, { timeoutMs: 5000, intervalMs: 50 })).toBe(true);
  });
});

const LATE = { REQUEST_DEADLINE_MS: '300', DATABASE_POOL_MAX: '1', STREAM_MAX_PER_CLIENT: '1' };

describe.each([
  ['the lean server', () => startSibling(t, LATE)],
  ['the built web process (Next)', () => startBuiltWeb(t, LATE)],
])('a stream whose request ran out of time on %s', (_name, start) => {
  // One Postgres connection orders the queries, so a later request's slot is counted after the late one's.
  it('gives its slot back when it opens after the 503 went out', { timeout: 120_000 }, async () => {
    const server = await start();
    try {
      await t.app.sql.begin(async (sql) => {
        await sql`lock table transactions in access exclusive mode`;
        const timedOut = await fetch(`${server.baseUrl}${streamPath}`);
        expect(timedOut.status).toBe(503);
        await timedOut.body?.cancel();
      });
      const slotFree = async () => {
        const res = await fetch(`${server.baseUrl}${streamPath}`);
        await res.body?.cancel();
        return res.status === 200;
      };
      expect(await waitUntil(slotFree, { timeoutMs: 5000, intervalMs: 100 })).toBe(true);
      expect(await waitUntil(async () => (await slotsHeld()) === 0, { timeoutMs: 5000 })).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
