import { loadConfig } from '../server/config';
import { startWorkerRuntime } from './runtime';

const config = loadConfig();
const runtime = await startWorkerRuntime(config, { healthServer: true });
runtime.ctx.log.info({ healthPort: config.worker.healthPort }, 'worker started: tracking + maintenance');

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    if (closing) return;
    closing = true;
    runtime.ctx.log.info({ signal }, 'worker shutting down: finishing in-flight jobs');
    const force = setTimeout(() => process.exit(1), 15_000);
    await runtime.close();
    clearTimeout(force);
    process.exit(0);
  });
}
