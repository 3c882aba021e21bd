import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { type BuiltWeb, ensureWebBuild, startBuiltWeb } from './support/built-web';

/**
 * What one client address can hold of the web process (Next behind web-server.ts, compiled) and of
 * the lean API server, tried with real sockets on loopback.
 */
let t: TestApp;
let web: BuiltWeb;

const LIMITS = {
  MAX_CONNECTIONS_PER_CLIENT: '6',
  REQUEST_BODY_TIMEOUT_MS: '1000',
  AUTH_MAX_BODY_BYTES: '1024',
};

beforeAll(async () => {
  ensureWebBuild();
  t = await startTestApp(LIMITS);
  web = await startBuiltWeb(t, { ...LIMITS, RATE_LIMIT_TRANSACTIONS: '3' });
}, 120_000);
afterAll(async () => {
  await web?.stop();
  await t?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A connection to `baseUrl` from `from` (any 127.x address is loopback: each test is a client of its
 * own, apart from the keep-alive connections of fetch), and whether the server has closed it yet.
 */
function openSocket(baseUrl: string, from: string) {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect({ host: hostname, port: Number(port), localAddress: from });
  const state = { socket, closed: false, received: '' };
  socket.on('data', (chunk) => {
    state.received += chunk.toString('utf8');
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    state.closed = true;
  });
  return state;
}

/** Polls `done` every 50 ms, at most `rounds` times. */
async function until(done: () => boolean, rounds = 100) {
  for (let i = 0; i < rounds && !done(); i++) await sleep(50);
}

async function heldConnections(baseUrl: string, from: string) {
  const sockets = Array.from({ length: 10 }, () => openSocket(baseUrl, from));
  await until(() => sockets.filter((s) => s.closed).length >= 4, 40);
  // Closed ones are closed at once; give the kept ones a moment to show they stay.
  await sleep(200);
  const closed = sockets.filter((s) => s.closed).length;
  for (const s of sockets) s.socket.destroy();
  return closed;
}

/** Sends a request head promising a body, and part of the body, then nothing. */
async function stalledBody(baseUrl: string, path: string) {
  const s = openSocket(baseUrl, '127.0.0.9');
  s.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`,
  );
  await until(() => s.closed, 200);
  s.socket.destroy();
  return s;
}

const expectTimedOut = (s: { closed: boolean; received: string }) => {
  expect(s.closed).toBe(true);
  expect(s.received).toMatch(/^HTTP\/1\.1 408/);
};

describe('connections per client address', () => {
  it('the web process keeps MAX_CONNECTIONS_PER_CLIENT of 10 open and closes the rest at once', async () => {
    expect(await heldConnections(web.baseUrl, '127.0.0.7')).toBe(4);
  });

  it('so does the lean API server', async () => {
    expect(await heldConnections(t.baseUrl, '127.0.0.8')).toBe(4);
  });
});

describe('a body that stalls', () => {
  it('is answered 408 and closed after REQUEST_BODY_TIMEOUT_MS by the web process', async () => {
    expectTimedOut(await stalledBody(web.baseUrl, '/api/v1/quote'));
  }, 20_000);

  it('and by the lean API server', async () => {
    expectTimedOut(await stalledBody(t.baseUrl, '/api/v1/quote'));
  }, 20_000);
});

describe('anonymous /api/auth bodies', () => {
  const body = JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2000) });

  it('past AUTH_MAX_BODY_BYTES get 413 before anything reads them', async () => {
    const res = await fetch(`${web.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web.baseUrl },
      body,
    });
    expect(res.status).toBe(413);
  });

  it('with a session cookie the dashboard cap applies', async () => {
    const res = await fetch(`${web.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: web.baseUrl,
        cookie: 'better-auth.session_token=not-a-real-one',
      },
      body,
    });
    expect(res.status).not.toBe(413);
  });
});

/** A raw GET from loopback address `from`: the status line and head as the server wrote them. */
async function rawGet(from: string, path: string) {
  const s = openSocket(web.baseUrl, from);
  s.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  await until(() => s.closed, 300);
  const head = s.received.slice(0, s.received.indexOf('\r\n\r\n')).toLowerCase();
  return { status: Number(head.split(' ')[1]), head };
}

describe('the public tracker page /tx/<id>', () => {
  it('answers an id no decoder accepts with a 4xx page, never a 5xx', async () => {
    for (const [i, path] of ['/tx/%E0%A4%A', '/tx/%00', '/tx/%ED%A0%80', '/tx/%'].entries()) {
      const { status } = await rawGet(`127.0.0.${20 + i}`, path);
      expect(status, path).toBeGreaterThanOrEqual(200);
      expect(status, path).toBeLessThan(500);
    }
  });

  it('draws on the status API budget: past it, a 429 page with Retry-After, and the status API is refused too', async () => {
    const get = (path: string) => rawGet('127.0.0.10', path);
    const pages = [];
    for (let i = 0; i < 3; i++) pages.push((await get(`/tx/tx_nothing${i}`)).status);
    expect(pages.every((s) => s > 0 && s < 429)).toBe(true);
    const refused = await get('/tx/tx_nothing');
    expect(refused.status).toBe(429);
    expect(refused.head).toMatch(/content-type: text\/html/);
    expect(refused.head).toMatch(/retry-after: [1-9]/);
    expect(refused.head).toMatch(/x-ratelimit-limit: 3\r\n/);
    expect(refused.head).toMatch(/x-ratelimit-remaining: 0\r\n/);
    expect((await get('/api/v1/transaction/status?transactionId=tx_nothing')).status).toBe(429);
  });
});
