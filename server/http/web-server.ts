import { createServer, type ServerResponse } from 'node:http';
import next from 'next';
import { drainHttpServer, listen, runService } from '../lifecycle';
import { createLogger } from '../log';
import { CLIENT_IP_HEADER, signedClientAddress } from '../ratelimit/client';
import { createWebRedis } from '../redis';
import { serviceStopOptions, stopServiceInSteps } from '../stop-steps';
import { startTracing } from '../tracing/start';
import { endTransactionStreams } from '../transactions/open-streams';
import { BodyCappedMessage, bodyCapFor, capRequestBody } from './capped-body';
import { boundClientConnections, clientConnectionOptions } from './client-connections';
import { answerParserRefusals } from './parser-refusals';
import { trackerPageLimiter } from './tracker-page-limit';
import { answerUnavailableRenders } from './unavailable-pages';
import { refuseUndecodablePath } from './undecodable-paths';

/**
 * Next behind a thin node:http layer. It tells the app the real peer address: route handlers cannot
 * see the socket, so it signs the address with this process's key (a client-sent value fails the
 * check; under plain `next start` every client is "unknown"). It refuses a body over the largest
 * any route takes before Next reads it: where its proxy runs, Next reads a whole body (keeping up to
 * 10 MB) before anything of ours runs. And it lets a page that found a dependency down answer 503.
 */
await runService('web', async (config) => {
  const tracing = await startTracing(config, 'web');
  const app = next({ dev: false, hostname: config.host, port: config.port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const redis = createWebRedis(config, config.dependencyTimeoutMs);
  const log = createLogger(config.logLevel, { process: 'web' });
  const limitTrackerPage = trackerPageLimiter(config, redis, log);
  const render = (req: BodyCappedMessage, res: ServerResponse) => {
    req.headers[CLIENT_IP_HEADER] = signedClientAddress(req.socket.remoteAddress);
    answerUnavailableRenders(req, res);
    handle(req, res);
  };
  const serve = (req: BodyCappedMessage, res: ServerResponse) => {
    if (refuseUndecodablePath(req, res)) return;
    const limited = limitTrackerPage(req, res);
    if (limited === false) render(req, res);
    else if (limited !== true) limited.then((answered) => answered || render(req, res));
  };
  const server = createServer(
    { IncomingMessage: BodyCappedMessage, ...clientConnectionOptions(config) },
    (req, res) => {
      if (!capRequestBody(req, res, bodyCapFor(req, config))) serve(req, res);
    },
  );
  // A client that asks before sending its body is told no, rather than invited to send what would be refused.
  server.on('checkContinue', (req: BodyCappedMessage, res: ServerResponse) => {
    if (capRequestBody(req, res, bodyCapFor(req, config))) return;
    res.writeContinue();
    serve(req, res);
  });
  answerParserRefusals(server);
  boundClientConnections(server, config);
  server.keepAliveTimeout = 65_000;
  await listen(server, config.port, config.host, 'PORT');
  console.log(`[web] Switchyard on http://${config.host}:${config.port}`);

  // Each step logged with its time; draining may take the whole budget (in-flight requests finish).
  return () =>
    stopServiceInSteps(
      [
        ['streams', endTransactionStreams],
        ['http', () => drainHttpServer(server)],
        ['next', () => app.close()],
        ['redis', () => redis.disconnect()],
        ['tracing', () => tracing?.shutdown()],
      ],
      serviceStopOptions(config.shutdownTimeoutMs, log, 'web', 0.75),
    );
});
