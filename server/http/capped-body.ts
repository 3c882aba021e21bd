import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config';
import { AppError } from '../errors';
import { newRequestId } from '../ids';
import { type ApiResponse, errorBody, interfaceHeaders, interfaceOf, jsonApiResponse } from './respond';

/**
 * Reads a request's or response's whole body, refusing it with `tooLarge()` past `maxBytes`: first
 * by its Content-Length, then by what actually arrives, since a sender may declare less than it sends.
 */
export async function readCappedBody(
  message: { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
  tooLarge: () => Error,
) {
  const declared = Number(message.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  if (!message.body) return Buffer.alloc(0);
  const reader = message.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const DASHBOARD_PATHS = /^\/api\/(trpc|auth)(\/|$)/;
const AUTH_PATH = /^\/api\/auth(\/|\?|$)/;
const SESSION_COOKIE = /(^|;\s*)(__Secure-)?better-auth\.session_token=/;

/**
 * The largest body the web server lets through for this request: to `/api/auth` without a session
 * cookie (sign-in, sign-up) only AUTH_MAX_BODY_BYTES; otherwise the larger of the API's and the
 * dashboard's caps, which their handlers then apply themselves. A forged cookie only earns the dashboard's.
 */
export function bodyCapFor(
  req: Pick<IncomingMessage, 'url' | 'headers'>,
  config: Pick<Config, 'maxBodyBytes' | 'dashboardMaxBodyBytes' | 'authMaxBodyBytes'>,
): number {
  if (AUTH_PATH.test(req.url ?? '') && !SESSION_COOKIE.test(req.headers.cookie ?? '')) return config.authMaxBodyBytes;
  return Math.max(config.maxBodyBytes, config.dashboardMaxBodyBytes);
}

const tooLargeMessage = (maxBytes: number) => `Request body larger than ${maxBytes} bytes`;

/**
 * The 413 for a body over `maxBytes`, the same from the web server's gate and the handlers behind it: the
 * public API's envelope on its paths, a plain `{ error: { code, message } }` on the dashboard's and pages.
 */
function bodyTooLarge(pathname: string, maxBytes: number): ApiResponse {
  const message = tooLargeMessage(maxBytes);
  if (pathname.startsWith('/api/') && !DASHBOARD_PATHS.test(pathname)) {
    const api = interfaceOf(pathname);
    const requestId = newRequestId();
    const refusal = new AppError('VALIDATION_ERROR', message, { status: 413, field: 'body' });
    return jsonApiResponse(413, errorBody(api, refusal, requestId), interfaceHeaders(api, requestId));
  }
  return {
    status: 413,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body: JSON.stringify({ error: { code: 'PAYLOAD_TOO_LARGE', message } }),
  };
}

class OverCap extends Error {}

/**
 * `request` with its whole body read under `maxBytes` (GET and HEAD as they are), or the 413 to answer
 * instead. For handlers that read whole bodies themselves (tRPC, Better Auth): they get one already capped.
 */
export async function withCappedBody(request: Request, maxBytes: number): Promise<Request | Response> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return request;
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = (await readCappedBody(request, maxBytes, () => new OverCap())) as Uint8Array<ArrayBuffer>;
  } catch (error) {
    if (!(error instanceof OverCap)) throw error;
    const refusal = bodyTooLarge(new URL(request.url).pathname, maxBytes);
    return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
}

/**
 * After a 413 the connection is half-closed and what the client still sends is read and dropped, up to
 * these bounds, before it is closed: closing a socket with unread bytes makes the kernel answer RST, and a
 * client still sending its body may then lose the 413 it was already sent (a lingering close).
 */
const LINGER_MS = 2_000;
const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * A node:http request whose body is counted as the parser hands it over (the server's `IncomingMessage`
 * class). Once `limitBody`'s cap is crossed nothing more reaches its readers, `onOverCap` runs once, and
 * the parser reads on only to drop up to LINGER_BYTES more.
 */
export class BodyCappedMessage extends IncomingMessage {
  private bodyBytes = 0;
  private maxBodyBytes = Number.POSITIVE_INFINITY;
  private onOverCap: (() => void) | undefined;
  private cut = false;
  private dropped = 0;

  limitBody(maxBytes: number, onOverCap: () => void): void {
    this.maxBodyBytes = maxBytes;
    this.onOverCap = onOverCap;
  }

  // Past the cap its end is held back too: a body cut there never reads as a whole one.
  override push(chunk: any, encoding?: BufferEncoding): boolean {
    if (this.cut) {
      this.dropped += chunk?.length ?? 0;
      return this.dropped < LINGER_BYTES;
    }
    if (chunk !== null) this.bodyBytes += chunk.length;
    if (this.bodyBytes <= this.maxBodyBytes) return super.push(chunk, encoding);
    this.cut = true;
    this.onOverCap?.();
    return true;
  }
}

/** Node closes a `connection: close` answer's socket with destroySoon: here it lingers first (above). */
function lingerAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/**
 * Refuses a body over `maxBytes` before anything reads it: a declared Content-Length over it at once (true:
 * answered, hand the request to nobody), an undeclared (chunked) one the moment it crosses the cap. Next
 * reads a whole body before its proxy and route handlers run, so this runs in front of Next.
 */
export function capRequestBody(req: BodyCappedMessage, res: ServerResponse, maxBytes: number): boolean {
  // The message is left unfinished: Next, waiting for the rest, never runs a proxy or handler on a cut
  // body, and what it holds for the request is collected with the closed connection.
  const refuse = () => {
    if (res.headersSent) return;
    const pathname = URL.canParse(req.url ?? '', 'http://x') ? new URL(req.url ?? '', 'http://x').pathname : '';
    const refusal = bodyTooLarge(pathname, maxBytes);
    const body = Buffer.from(refusal.body ?? '');
    lingerAfterAnswer(req.socket);
    res.writeHead(refusal.status, { ...refusal.headers, 'content-length': body.byteLength, connection: 'close' });
    res.end(body);
  };
  if (Number(req.headers['content-length'] ?? '0') > maxBytes) {
    req.limitBody(0, () => {});
    refuse();
    return true;
  }
  req.limitBody(maxBytes, refuse);
  return false;
}
