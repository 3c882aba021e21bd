import { getAppContext } from '../context';
import { drainHttpServer, listen, runService } from '../lifecycle';
import { serviceStopOptions, stopServiceInSteps } from '../stop-steps';
import { startTracing } from '../tracing/start';
import { endTransactionStreams } from '../transactions/open-streams';
import { createApiServer } from './node-adapter';

await runService('api', async (config) => {
  const tracing = await startTracing(config, 'api');
  const app = getAppContext();
  const server = createApiServer(app);
  const port = await listen(server, config.apiPort, config.host, 'API_PORT');
  app.log.info({ port }, `lean API server listening on http://${config.host}:${port}`);
  // Each step logged with its time; draining may take the whole budget (in-flight requests finish).
  return () =>
    stopServiceInSteps(
      [
        ['streams', endTransactionStreams],
        ['http', () => drainHttpServer(server)],
        ['context', () => app.close()],
        ['tracing', () => tracing?.shutdown()],
      ],
      serviceStopOptions(config.shutdownTimeoutMs, app.log, 'api', 0.75),
    );
});
