import { createServer } from 'node:http';
import next from 'next';
import { loadConfig } from '../config';
import { CLIENT_IP_HEADER, signedClientAddress } from '../ratelimit/client';

/**
 * Next behind a thin node:http layer whose only job is to tell the app the real peer address:
 * route handlers cannot see the socket, so it signs the address with this process's key (a
 * client-sent value fails the check; under plain `next start` every client is "unknown").
 */
const config = loadConfig();
const app = next({ dev: false, hostname: config.host, port: config.port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  req.headers[CLIENT_IP_HEADER] = signedClientAddress(req.socket.remoteAddress);
  handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(config.port, config.host, () => {
  console.log(`[web] Switchyard on http://${config.host}:${config.port}`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
