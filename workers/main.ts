import { runService } from '../server/lifecycle';
import { startWorkerRuntime } from './runtime';

await runService('worker', async (config) => {
  const runtime = await startWorkerRuntime(config, { healthServer: true });
  runtime.ctx.log.info({ healthPort: config.worker.healthPort }, 'worker started: tracking + maintenance + webhooks');
  return async () => {
    runtime.ctx.log.info('worker shutting down: finishing in-flight jobs');
    await runtime.close();
  };
});
