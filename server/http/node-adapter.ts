import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AppContext } from '../context';
import { handleMetrics } from '../observability/prometheus';
import { CLIENT_IP_HEADER, signedClientAddress } from '../ratelimit/client';
import { boundClientConnections, clientConnectionOptions } from './client-connections';
import type { ApiRequest } from './endpoint';
import { answerParserRefusals } from './parser-refusals';
import type { ApiResponse } from './respond';
import { dispatchApiRequest, handleHealth } from './routes';

/** A full Fetch `Request`, for the few non-API routes that take one. */
function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  headers.set(CLIENT_IP_HEADER, signedClientAddress(req.socket.remoteAddress));
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The message's body read straight off node:http, refused past `maxBytes` as a web stream reader
 * would (declared length first, then what arrives; the rest is not read).
 */
function readMessageBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? '0') > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        req.off('data', onData);
        req.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('request body cut short'));
    });
  });
}

/**
 * node:http's message as the API endpoints read it: headers straight from the parsed message, the
 * peer address from the socket, and a body stream only for methods that carry one.
 */
function toApiRequest(req: IncomingMessage, res: ServerResponse, origin: string): ApiRequest {
  const method = req.method ?? 'GET';
  let body: ReadableStream<Uint8Array> | null | undefined;
  let gone: AbortController | undefined;
  return {
    method,
    url: origin + (req.url ?? '/'),
    peerAddress: req.socket.remoteAddress ?? '',
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    readBody: (maxBytes, tooLarge) =>
      method === 'GET' || method === 'HEAD'
        ? Promise.resolve(Buffer.alloc(0))
        : readMessageBody(req, maxBytes, tooLarge),
    get body() {
      if (body === undefined) {
        body = method === 'GET' || method === 'HEAD' ? null : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
      }
      return body;
    },
    // Made on first use: only the long-lived answers (event streams) ask whether the client left.
    get signal() {
      if (!gone) {
        const controller = new AbortController();
        gone = controller;
        if (res.closed) controller.abort();
        else res.once('close', () => controller.abort());
      }
      return gone.signal;
    },
  };
}

async function sendFetchResponse(res: ServerResponse, response: Response) {
  res.statusCode = response.status;
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

function sendApiResponse(res: ServerResponse, response: ApiResponse) {
  res.writeHead(response.status, response.headers);
  if (response.events) {
    // Piped, so a slow client holds the stream back instead of filling memory; a gone one cancels it.
    const events = Readable.fromWeb(response.events as import('node:stream/web').ReadableStream<Uint8Array>);
    res.once('close', () => events.destroy());
    events.on('error', () => res.destroy());
    events.pipe(res);
    return;
  }
  res.end(response.body ?? undefined);
}

/** Routes outside the API table that answer with a Fetch `Response`, by exact path. */
const FETCH_ROUTES: Record<
  string,
  (app: AppContext, req: IncomingMessage, res: ServerResponse, origin: string) => Promise<Response>
> = {
  '/api/health': (app, req, res, origin) => handleHealth(app, 'live', toApiRequest(req, res, origin)),
  '/api/health/ready': (app, req, res, origin) => handleHealth(app, 'ready', toApiRequest(req, res, origin)),
  '/api/metrics': (app, req, _res, origin) => handleMetrics(app, toRequest(req, origin)),
};

/** The same endpoints as Next's route files, on a bare node:http server without Fetch objects in between. */
export function createApiServer(app: AppContext): Server {
  const server = createServer(clientConnectionOptions(app.config), async (req, res) => {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    try {
      const rawPath = req.url ?? '/';
      const query = rawPath.indexOf('?');
      const path = query === -1 ? rawPath : rawPath.slice(0, query);
      const fetchRoute = FETCH_ROUTES[path];
      if (fetchRoute) await sendFetchResponse(res, await fetchRoute(app, req, res, origin));
      else sendApiResponse(res, await dispatchApiRequest(app, toApiRequest(req, res, origin)));
    } catch {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  });
  answerParserRefusals(server);
  boundClientConnections(server, app.config);
  return server;
}
