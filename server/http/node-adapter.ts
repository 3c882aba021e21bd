import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AppContext } from '../context';
import { handleMetrics } from '../observability/prometheus';
import { CLIENT_IP_HEADER, signedClientAddress } from '../ratelimit/client';
import type { ApiRequest } from './endpoint';
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
 * node:http's message as the API endpoints read it: headers straight from the parsed message, the
 * peer address from the socket, and a body stream only for methods that carry one.
 */
function toApiRequest(req: IncomingMessage, origin: string, signal?: AbortSignal): ApiRequest {
  const method = req.method ?? 'GET';
  let body: ReadableStream<Uint8Array> | null | undefined;
  return {
    method,
    url: origin + (req.url ?? '/'),
    peerAddress: req.socket.remoteAddress ?? '',
    signal,
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    get body() {
      if (body === undefined) {
        body = method === 'GET' || method === 'HEAD' ? null : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
      }
      return body;
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
  if (response.body instanceof ReadableStream) {
    // Piped, so a slow client holds the stream back instead of filling memory; a gone one cancels it.
    const events = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
    res.once('close', () => events.destroy());
    events.on('error', () => res.destroy());
    events.pipe(res);
    return;
  }
  res.end(response.body ?? undefined);
}

/** Routes outside the API table that answer with a Fetch `Response`, by exact path. */
const FETCH_ROUTES: Record<string, (app: AppContext, req: IncomingMessage, origin: string) => Promise<Response>> = {
  '/api/health': (app, req, origin) => handleHealth(app, 'live', toApiRequest(req, origin)),
  '/api/health/ready': (app, req, origin) => handleHealth(app, 'ready', toApiRequest(req, origin)),
  '/api/metrics': (app, req, origin) => handleMetrics(app, toRequest(req, origin)),
};

/** The same endpoints as Next's route files, on a bare node:http server without Fetch objects in between. */
export function createApiServer(app: AppContext): Server {
  return createServer(async (req, res) => {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    try {
      const rawPath = req.url ?? '/';
      const query = rawPath.indexOf('?');
      const path = query === -1 ? rawPath : rawPath.slice(0, query);
      const fetchRoute = FETCH_ROUTES[path];
      if (fetchRoute) await sendFetchResponse(res, await fetchRoute(app, req, origin));
      else {
        const gone = new AbortController();
        res.once('close', () => gone.abort());
        sendApiResponse(res, await dispatchApiRequest(app, toApiRequest(req, origin, gone.signal)));
      }
    } catch {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  });
}
