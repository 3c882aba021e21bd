import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './log';

/** One step of a stop: a name for the log, and the work. */
export type StopStep = readonly [name: string, run: () => unknown];

/** What became of one step: begun, finished (in `ms`), failed, or still running at its bound and left behind. */
export type StopStepEvent =
  | { step: string; outcome: 'started' }
  | { step: string; outcome: 'done'; ms: number }
  | { step: string; outcome: 'late'; ms: number }
  | { step: string; outcome: 'failed'; ms: number; error: unknown };

export interface StepOptions {
  /** The whole stop's budget; once spent, the remaining steps are started without being waited for. */
  budgetMs: number;
  /** The most one step may take before the stop moves on without it. */
  stepMs: number;
  report: (event: StopStepEvent) => void;
  now?: () => number;
  /** Resolves after `ms` unless `signal` aborts first; tests pass one that does not wait. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
export const waitOrAbort = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => {});

/**
 * Runs `steps` in order, each bounded: a step that fails, or is still running at its bound, is reported
 * and left behind, so a stop never outlasts its budget, and its report says which step was slow. Resolves
 * with the steps that did not finish (failed or late), never rejects.
 */
export async function runStopSteps(steps: readonly StopStep[], options: StepOptions): Promise<string[]> {
  const { budgetMs, stepMs, report, now = Date.now, wait = waitOrAbort } = options;
  const deadline = now() + budgetMs;
  const unfinished: string[] = [];
  for (const [step, run] of steps) {
    const started = now();
    const bound = Math.max(0, Math.min(stepMs, deadline - started));
    report({ step, outcome: 'started' });
    const outcome = Promise.resolve()
      .then(run)
      .then(
        () => ({ outcome: 'done' as const }),
        (error: unknown) => ({ outcome: 'failed' as const, error }),
      );
    const timer = new AbortController();
    const finished = await Promise.race([
      outcome,
      wait(bound, timer.signal).then(() => ({ outcome: 'late' as const })),
    ]);
    timer.abort();
    report({ step, ms: now() - started, ...finished });
    if (finished.outcome !== 'done') unfinished.push(step);
  }
  return unfinished;
}

/**
 * A service's stop in bounded, logged steps (runStopSteps) that rejects when a step failed or was left
 * running, so runService exits 1: a stop that did not complete is not reported as a clean one.
 */
export async function stopServiceInSteps(steps: readonly StopStep[], options: StepOptions): Promise<void> {
  const unfinished = await runStopSteps(steps, options);
  if (unfinished.length) throw new Error(`stop steps not finished: ${unfinished.join(', ')}`);
}

/** A step that took longer than this is logged as a warning (a soak or production log at `warn` still shows it). */
const SLOW_STEP_MS = 1_000;

/** A stop step's report as one structured log line: which step, how it ended, and how long it took. */
export function logStopStep(log: Logger, owner: string, event: StopStepEvent) {
  const fields = { stop: owner, step: event.step };
  if (event.outcome === 'started') log.info(fields, `stopping: ${event.step}`);
  else if (event.outcome === 'done')
    log[event.ms > SLOW_STEP_MS ? 'warn' : 'info']({ ...fields, ms: event.ms }, `stopped: ${event.step}`);
  else if (event.outcome === 'late')
    log.error({ ...fields, ms: event.ms }, `stop step still running at its bound; moving on: ${event.step}`);
  else log.error({ ...fields, ms: event.ms, err: event.error }, `stop step failed: ${event.step}`);
}

/**
 * A service's stop within SHUTDOWN_TIMEOUT_MS: the whole stop in three quarters of it, so it ends by itself
 * before runService's timeout exits the process with 1; each step at most `stepShare` of it; every step
 * logged with its time.
 */
export function serviceStopOptions(shutdownTimeoutMs: number, log: Logger, owner: string, stepShare = 0.5) {
  return {
    budgetMs: shutdownTimeoutMs * 0.75,
    stepMs: shutdownTimeoutMs * stepShare,
    report: (event: StopStepEvent) => logStopStep(log, owner, event),
  } satisfies StepOptions;
}
