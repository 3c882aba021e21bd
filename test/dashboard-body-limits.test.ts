import { createServer } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAuthRequestFor } from '../server/auth/handler';
import { BodyCappedMessage, capRequestBody } from '../server/http/capped-body';
import { listen } from '../server/lifecycle';
import { handleTrpcRequest } from '../server/trpc/handler';
import { startTestApp, type TestApp } from './support/app';
import { type BuiltWeb, ensureWebBuild, startBuiltWeb } from './support/built-web';
import { PASSWORD, signedInUser } from './support/dashboard';

/**
 * The dashboard's endpoints (/api/trpc, /api/auth) take bodies up to DASHBOARD_MAX_BODY_BYTES: past it
 * the answer is 413 before the body is read whole, from their handlers and, in front of Next (which
 * reads a whole body before its proxy and our handlers run), from the web process itself.
 */
const MAX = 1024 * 1024;
const CHUNK = 64 * 1024;
const SIGN_IN = '/api/auth/sign-in/email';
const POLL_NOW = '/api/trpc/transactions.pollNow';

let t: TestApp;
let web: BuiltWeb;

beforeAll(async () => {
  ensureWebBuild();
  t = await startTestApp();
  // Anonymous /api/auth has a smaller cap of its own (test/client-limits.test.ts); here both share the dashboard's.
  web = await startBuiltWeb(t, { AUTH_MAX_BODY_BYTES: String(MAX) });
}, 300_000);

afterAll(async () => {
  await web?.stop();
  await t?.stop();
});

/** A 16 MiB body, counting what its reader pulled. */
function largeBody() {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled.bytes >= 16 * MAX) return controller.close();
        pulled.bytes += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(32));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled };
}

const BASE = 'http://127.0.0.1:3000';
const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE, ...headers },
    body,
    duplex: 'half',
  } as RequestInit);

const handlers = {
  tRPC: { path: POLL_NOW, handle: (request: Request) => handleTrpcRequest(request, t.app) },
  'Better Auth': { path: SIGN_IN, handle: (request: Request) => handleAuthRequestFor(t.app, request) },
};

describe.each(Object.entries(handlers))('the %s handler', (_name, { path, handle }) => {
  it('answers 413 to a declared length over the cap without reading the body', async () => {
    const { stream, pulled } = largeBody();
    const res = await handle(post(path, stream, { 'content-length': String(128 * MAX) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: `Request body larger than ${MAX} bytes` },
    });
    expect(pulled.bytes).toBe(0);
  });

  it('counts an undeclared body as it arrives and stops reading at the cap', async () => {
    const { stream, pulled } = largeBody();
    const res = await handle(post(path, stream));
    expect(res.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(MAX + CHUNK);
  });
});

describe('bodies within the cap', () => {
  it('reach Better Auth whole, streamed or not', async () => {
    const user = await signedInUser(t.app, 'support');
    const json = JSON.stringify({ email: user.email, password: PASSWORD });
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(json));
        controller.close();
      },
    });
    expect((await handleAuthRequestFor(t.app, post(SIGN_IN, streamed))).status).toBe(200);
    const wrong = JSON.stringify({ email: user.email, password: `${PASSWORD}!` });
    expect((await handleAuthRequestFor(t.app, post(SIGN_IN, wrong))).status).toBe(401);
  });

  it('that nest superjson metadata past the stack answer a plain 400, nothing of the overflow in it', async () => {
    const support = await signedInUser(t.app, 'support');
    const depth = 50_000;
    const nested = `${'['.repeat(depth)}"undefined"${']'.repeat(depth)}`;
    const body = `{"json":{"id":"tx_missing"},"meta":{"values":{"id":${nested}}}}`;
    expect(body.length).toBeLessThan(MAX);
    const res = await handleTrpcRequest(post(POLL_NOW, body, { cookie: support.headers.get('cookie') ?? '' }), t.app);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(JSON.parse(text).error.json).toMatchObject({ message: 'Malformed request', data: { code: 'BAD_REQUEST' } });
    expect(text).not.toMatch(/call stack|RangeError|"stack"/i);
  });
});

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  /** Body bytes the client had written when the answer began to arrive. */
  sent: number;
}

/**
 * Sends a request head, then (for `chunked`) body chunks until the server answers or `bodyBytes` are
 * sent, and resolves once the whole answer (its Content-Length) has arrived, or the server closed. The
 * server may reset the connection behind a refusal; what arrived before it still counts.
 */
function sendUntilAnswered(
  baseUrl: string,
  head: string,
  { chunked, bodyBytes }: { chunked: boolean; bodyBytes: number },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let sent = 0;
    let answeredAt: number | undefined;
    const answer = (): RawAnswer | undefined => {
      const split = received.indexOf('\r\n\r\n');
      if (split === -1) return undefined;
      const headers = received.subarray(0, split).toString('latin1').toLowerCase();
      const length = /\r\ncontent-length: (\d+)/.exec(headers)?.[1];
      const body = received.subarray(split + 4);
      if (socket.readyState !== 'closed' && (length === undefined || body.length < Number(length))) return undefined;
      return { status: Number(headers.split(' ')[1]), headers, body: body.toString('utf8'), sent: answeredAt ?? sent };
    };
    socket.setTimeout(15_000, () => {
      socket.destroy();
      reject(new Error(`no answer within 15 s (${sent} body bytes sent)`));
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      answeredAt ??= sent;
      const whole = answer();
      if (!whole) return;
      socket.destroy();
      resolve(whole);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const whole = answer();
      if (whole) resolve(whole);
      else reject(new Error(`no whole answer before the connection closed (${sent} body bytes sent)`));
    });
    socket.write(head);
    if (!chunked) return;
    const chunk = Buffer.concat([
      Buffer.from(`${CHUNK.toString(16)}\r\n`),
      Buffer.alloc(CHUNK, 32),
      Buffer.from('\r\n'),
    ]);
    const pump = () => {
      while (answeredAt === undefined && !socket.destroyed && sent < bodyBytes) {
        sent += CHUNK;
        if (!socket.write(chunk)) return socket.once('drain', pump);
      }
      if (answeredAt === undefined && !socket.destroyed) socket.end('0\r\n\r\n');
    };
    pump();
  });
}

const postHead = (path: string, framing: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

describe.each([
  ['/api/trpc', POLL_NOW],
  ['/api/auth', SIGN_IN],
])('%s through the built web process', (_name, path) => {
  it('answers a declared length over the cap with 413 at once, before any of the body is sent', async () => {
    const answer = await sendUntilAnswered(web.baseUrl, postHead(path, `Content-Length: ${128 * MAX}`), {
      chunked: false,
      bodyBytes: 0,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers).toContain('\r\nconnection: close');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: `Request body larger than ${MAX} bytes` },
    });
  });

  it('answers 413, not 100 Continue, to a client that asks before sending a body over the cap', async () => {
    const head = postHead(path, `Content-Length: ${128 * MAX}\r\nExpect: 100-continue`);
    const answer = await sendUntilAnswered(web.baseUrl, head, { chunked: false, bodyBytes: 0 });
    expect(answer.status).toBe(413);
    expect(answer.headers).not.toContain('100 continue');
  });

  it('cuts a chunked body at the cap with 413 instead of reading it whole', { timeout: 60_000 }, async () => {
    const total = 64 * MAX;
    const answer = await sendUntilAnswered(web.baseUrl, postHead(path, 'Transfer-Encoding: chunked'), {
      chunked: true,
      bodyBytes: total,
    });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(total);
    expect(answer.body).toContain('PAYLOAD_TOO_LARGE');
  });
});

describe('the built web process', () => {
  it('passes a chunked body within the cap on to Better Auth', async () => {
    const user = await signedInUser(t.app, 'support');
    const json = JSON.stringify({ email: user.email, password: `${PASSWORD}!` });
    const head = `POST ${SIGN_IN} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${web.baseUrl}\r\nContent-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const body = `${Buffer.byteLength(json).toString(16)}\r\n${json}\r\n0\r\n\r\n`;
    const answer = await sendUntilAnswered(web.baseUrl, head + body, { chunked: false, bodyBytes: 0 });
    expect(answer.status).toBe(401);
    expect(answer.body).toContain('INVALID_EMAIL_OR_PASSWORD');
  });

  it("keeps the public API's envelope on a 413 it answers in front of Next", async () => {
    const answer = await sendUntilAnswered(web.baseUrl, postHead('/api/v1/quote', `Content-Length: ${128 * MAX}`), {
      chunked: false,
      bodyBytes: 0,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'body' });
  });
});

describe("the web process's gate on node:http", () => {
  // The same gate as server/http/web-server.ts, in front of a reader that takes whatever body it is handed.
  async function gatedServer() {
    const handedOn: number[] = [];
    const server = createServer({ IncomingMessage: BodyCappedMessage }, (req, res) => {
      if (capRequestBody(req, res, MAX)) return;
      let bytes = 0;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      req.on('end', () => {
        handedOn.push(bytes);
        if (!res.headersSent) res.end();
      });
    });
    const port = await listen(server, 0, '127.0.0.1');
    return { baseUrl: `http://127.0.0.1:${port}`, handedOn, close: () => server.close(() => {}) };
  }
  const chunkedPost = (size: number) =>
    `${postHead(SIGN_IN, 'Transfer-Encoding: chunked')}${size.toString(16)}\r\n${' '.repeat(size)}\r\n0\r\n\r\n`;

  it('never hands on a body cut at the cap, even when its end arrives with the bytes past it', async () => {
    const gated = await gatedServer();
    try {
      const cut = await sendUntilAnswered(gated.baseUrl, chunkedPost(MAX + 100), { chunked: false, bodyBytes: 0 });
      expect(cut.status).toBe(413);
      expect(gated.handedOn).toEqual([]);

      const whole = await sendUntilAnswered(gated.baseUrl, chunkedPost(MAX), { chunked: false, bodyBytes: 0 });
      expect(whole.status).toBe(200);
      expect(gated.handedOn).toEqual([MAX]);
    } finally {
      gated.close();
    }
  });
});
