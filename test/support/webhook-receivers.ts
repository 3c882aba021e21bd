import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listen } from '../../server/lifecycle';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

async function readBody(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function serve(handle: (request: IncomingMessage, response: ServerResponse, received: Received) => void) {
  const sockets = new Set<Socket>();
  const server = createServer(async (request, response) => {
    const received = { headers: request.headers, body: await readBody(request), path: request.url ?? '/' };
    handle(request, response, received);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    /** Ends every connection, answered or not, then stops listening. */
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback receiver that records every request and answers the n-th attempt of each message (from 1) with `statusFor(n)`. */
export async function startReceiver(statusFor: (attempt: number) => number = () => 204) {
  const requests: Received[] = [];
  const served = await serve((_request, response, received) => {
    requests.push(received);
    const attempt = requests.filter((r) => r.headers['webhook-id'] === received.headers['webhook-id']).length;
    response.writeHead(statusFor(attempt)).end();
  });
  return {
    url: `${served.url}/hooks`,
    requests,
    events: () => requests.map((r) => ({ id: r.headers['webhook-id'], ...JSON.parse(r.body) })),
    stop: served.stop,
  };
}

/**
 * A loopback receiver that reads each request and never answers it: every path is an endpoint of
 * its own. Records the requests it holds and whether any ended before `stop` (the sender gave up).
 * While `failing()` holds, it answers 500 at once instead (an endpoint that failed before it hung).
 */
export async function startHangingReceiver({ failing = () => false }: { failing?: () => boolean } = {}) {
  const held: (Received & { ended: boolean })[] = [];
  const failed: Received[] = [];
  const served = await serve((_request, response, received) => {
    if (failing()) {
      failed.push(received);
      response.writeHead(500).end();
      return;
    }
    const entry = { ...received, ended: false };
    held.push(entry);
    response.on('close', () => {
      entry.ended = true;
    });
  });
  return {
    urlFor: (name: string) => `${served.url}/${name}`,
    held,
    failed,
    /** Requests held open right now, by path. */
    open: () => {
      const byPath = new Map<string, number>();
      for (const r of held.filter((h) => !h.ended)) byPath.set(r.path, (byPath.get(r.path) ?? 0) + 1);
      return byPath;
    },
    stop: served.stop,
  };
}
