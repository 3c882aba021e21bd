import { getAppContext } from '../context';
import { drainHttpServer, listen, runService } from '../lifecycle';
import { startTracing } from '../tracing/start';
import { endTransactionStreams } from '../transactions/open-streams';
import { createApiServer } from './node-adapter';

await runService('api', async (config) => {
  const tracing = await startTracing(config, 'api');
  const app = getAppContext();
  const server = createApiServer(app);
  const port = await listen(server, config.apiPort, config.host, 'API_PORT');
  app.log.info({ port }, `lean API server listening on http://${config.host}:${port}`);
  return async () => {
    endTransactionStreams();
    await drainHttpServer(server);
    await app.close();
    await tracing?.shutdown();
  };
});
