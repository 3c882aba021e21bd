import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AppContext } from '../context';
import { handleMetrics } from '../observability/prometheus';
import { CLIENT_IP_HEADER, signedClientAddress } from '../ratelimit/client';
import { handleApiRequest, handleHealth } from './routes';

function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
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
    signal,
  } as RequestInit);
}

async function send(res: ServerResponse, response: Response) {
  res.statusCode = response.status;
  for (const [key, value] of response.headers) res.setHeader(key, value);
  if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    // Piped, so a slow client holds the stream back instead of filling memory; a gone one cancels it.
    const events = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
    res.once('close', () => events.destroy());
    events.on('error', () => res.destroy());
    events.pipe(res);
    return;
  }
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/** The same Fetch-API handlers as Next's route files, on a bare node:http server. */
export function createApiServer(app: AppContext): Server {
  return createServer(async (req, res) => {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    try {
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      const request = toRequest(req, origin, gone.signal);
      const path = new URL(request.url).pathname;
      const response =
        path === '/api/health'
          ? await handleHealth(app, 'live')
          : path === '/api/health/ready'
            ? await handleHealth(app, 'ready')
            : path === '/api/metrics'
              ? await handleMetrics(app, request)
              : await handleApiRequest(app, request);
      await send(res, response);
    } catch {
      res.statusCode = 500;
      res.end();
    }
  });
}
