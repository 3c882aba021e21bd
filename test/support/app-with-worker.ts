import { afterAll, beforeAll } from 'vitest';
import { startWorkerRuntime, type WorkerRuntime } from '../../workers/runtime';
import { startTestApp, type TestApp } from './app';
import { stopInSteps } from './stop';

/** The file's worker, on its test app's config: at most one runs; `start` when none does is a no-op otherwise. */
export interface TestWorker {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A test app started once per file with `env` (handed to `ready`), and its worker: running from the
 * start with `{ worker: true }`, else from when a test starts it. Both stop after the file.
 */
export function withAppAndWorker(
  env: Record<string, string>,
  ready: (t: TestApp) => void,
  { worker: atStart = false }: { worker?: boolean } = {},
): TestWorker {
  let t: TestApp | undefined;
  let runtime: WorkerRuntime | undefined;
  const worker: TestWorker = {
    async start() {
      if (!t) throw new Error('the test app has not started');
      runtime ??= await startWorkerRuntime(t.app.config);
    },
    async stop() {
      const running = runtime;
      runtime = undefined;
      await running?.close();
    },
  };
  beforeAll(async () => {
    t = await startTestApp(env);
    ready(t);
    if (atStart) await worker.start();
  });
  afterAll(() => stopInSteps('app and worker', [['worker', () => worker.stop()], ...(t?.stopSteps ?? [])]));
  return worker;
}
