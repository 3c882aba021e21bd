import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild } from './processes';

/** One step of stopping what a test started: a name for the log, and the work. */
export type StopStep = readonly [name: string, run: () => unknown];

export interface StopOptions {
  /** The whole stop's budget: vitest's hookTimeout (30 s) less a margin, so a stop never outlasts its hook. */
  budgetMs?: number;
  /** The most one step may take before the stop moves on without it. */
  stepMs?: number;
  /** A step taking longer than this is logged with its time. */
  slowMs?: number;
  log?: (line: string) => void;
  now?: () => number;
  /** Resolves after `ms` unless `signal` aborts first; tests pass one that does not wait. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const waitFor = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => {});
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs `steps` in order, each bounded: a step that fails, or is still running at its bound, is logged and
 * left behind, so stopping never fails a run nor outlasts its hook (a busy machine made steps slow, not wrong).
 * Once the budget is spent, the remaining steps are started without being waited for.
 */
export async function stopInSteps(owner: string, steps: readonly StopStep[], options: StopOptions = {}): Promise<void> {
  const {
    budgetMs = 20_000,
    stepMs = 8_000,
    slowMs = 1_000,
    log = (line: string) => console.warn(line),
    now = Date.now,
    wait = waitFor,
  } = options;
  const deadline = now() + budgetMs;
  for (const [name, run] of steps) {
    const started = now();
    const bound = Math.max(0, Math.min(stepMs, deadline - started));
    const outcome = Promise.resolve()
      .then(run)
      .then(
        () => 'done' as const,
        (error: unknown) => {
          log(`[stop] ${owner}: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
          return 'failed' as const;
        },
      );
    const timer = new AbortController();
    const finished = await Promise.race([outcome, wait(bound, timer.signal).then(() => 'late' as const)]);
    timer.abort();
    const took = now() - started;
    if (finished === 'late') log(`[stop] ${owner}: ${name} still running after ${seconds(took)}; moving on`);
    else if (took > slowMs) log(`[stop] ${owner}: ${name} took ${seconds(took)}`);
  }
}

/** A step that stops a child process: SIGTERM, then SIGKILL after `graceMs`. */
export const childStep = (name: string, child: ChildProcess | undefined, graceMs = 5_000): StopStep => [
  name,
  () => stopChild(child, graceMs),
];
