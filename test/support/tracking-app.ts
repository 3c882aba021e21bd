import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startWorkerRuntime, type WorkerRuntime } from '../../workers/runtime';
import { startTestApp, type TestApp } from './app';
import { stopInSteps } from './stop';

/** Tracking fast enough for a test: 1% of real poll intervals, 100 ms floors, locks lost within 2 s, no sweep. */
export const FAST_TRACKING = {
  PROVIDER_DEADLINE_MS: '1500',
  TRACKING_TIME_SCALE: '0.01',
  TRACKING_MIN_INTERVAL_MS: '100',
  WORKER_LOCK_DURATION_MS: '2000',
  SWEEP_INTERVAL_MS: '600000',
} as const;

/**
 * A test app with a worker polling fast, for end-to-end tracking through the simulators: started
 * once per file, simulators reset before each test to settle after `settleAfterPolls` polls.
 */
export function withTrackingApp(
  settleAfterPolls: number,
  ready: (t: TestApp) => void,
  overrides: Record<string, string> = {},
) {
  let t: TestApp | undefined;
  let worker: WorkerRuntime | undefined;
  beforeAll(async () => {
    t = await startTestApp({ ...FAST_TRACKING, ...overrides });
    worker = await startWorkerRuntime(t.app.config);
    ready(t);
  });
  afterAll(() => stopInSteps('tracking app', [['worker', () => worker?.close()], ...(t?.stopSteps ?? [])]));
  beforeEach(() => {
    for (const sim of Object.values(t?.sims ?? {})) {
      sim.reset();
      sim.configure({ settleAfterPolls });
    }
  });
}
