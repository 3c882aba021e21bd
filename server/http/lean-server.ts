import { getAppContext } from '../context';
import { createApiServer, listen } from './node-adapter';

const app = getAppContext();
const server = createApiServer(app);
const port = await listen(server, app.config.apiPort, app.config.host);
app.log.info({ port }, `lean API server listening on http://${app.config.host}:${port}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(() => void app.close().then(() => process.exit(0)));
  });
}
