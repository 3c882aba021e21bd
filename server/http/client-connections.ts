import type { Server } from 'node:http';
import type { Config } from '../config';
import { clientKey, UNKNOWN_CLIENT } from '../ratelimit/client';
import { slotsPerKey } from '../slots';

/**
 * Bounds what one client can hold of a node:http server: a request must arrive whole (headers and
 * body) within REQUEST_BODY_TIMEOUT_MS (Node answers 408 and closes), and one address (an IPv6 /64)
 * holds at most MAX_CONNECTIONS_PER_CLIENT connections; one more is closed at once. Behind a trusted
 * proxy every connection comes from the proxy, which bounds its clients itself: no per-address cap then.
 */
export function boundClientConnections(server: Server, config: Pick<Config, 'connections' | 'trustProxy'>): void {
  const { requestTimeoutMs, perClient: max } = config.connections;
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(server.headersTimeout, requestTimeoutMs);
  if (config.trustProxy) return;
  const take = slotsPerKey();
  server.on('connection', (socket) => {
    const release = take(clientKey(socket.remoteAddress || UNKNOWN_CLIENT), max);
    if (release) socket.once('close', release);
    else socket.destroy();
  });
}

/** Options for `createServer`: Node looks for requests past their timeout this often (30 s by default). */
export const clientConnectionOptions = (config: Pick<Config, 'connections'>) => ({
  connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(config.connections.requestTimeoutMs / 4))),
});
