import { refuseDemoDataWhenLive } from '../server/demo-data';
import { runService } from '../server/lifecycle';
import { startTracing } from '../server/tracing/start';
import { startWorkerRuntime } from './runtime';

await runService('worker', async (config) => {
  await refuseDemoDataWhenLive(config);
  const tracing = await startTracing(config, 'worker');
  const runtime = await startWorkerRuntime(config, { healthServer: true });
  runtime.ctx.log.info({ healthPort: config.worker.healthPort }, 'worker started: tracking + maintenance + webhooks');
  return async () => {
    runtime.ctx.log.info('worker shutting down: finishing in-flight jobs');
    await runtime.close();
    await tracing?.shutdown();
  };
});
