import type { ChildProcess } from 'node:child_process';
import { runStopSteps, type StopStep } from '../../server/stop-steps';
import { stopChild } from './processes';

export type { StopStep };

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

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs `steps` in order, each bounded (server/stop-steps.ts): a step that fails, or is still running at its
 * bound, is logged and left behind, so stopping never fails a run nor outlasts its hook (a busy machine made
 * steps slow, not wrong). Once the budget is spent, the remaining steps are started without being waited for.
 */
export async function stopInSteps(owner: string, steps: readonly StopStep[], options: StopOptions = {}): Promise<void> {
  const { budgetMs = 20_000, stepMs = 8_000, slowMs = 1_000, log = (line: string) => console.warn(line) } = options;
  await runStopSteps(steps, {
    budgetMs,
    stepMs,
    now: options.now,
    wait: options.wait,
    report: (event) => {
      if (event.outcome === 'failed') {
        const { error } = event;
        log(`[stop] ${owner}: ${event.step} failed: ${error instanceof Error ? error.message : String(error)}`);
      } else if (event.outcome === 'late') {
        log(`[stop] ${owner}: ${event.step} still running after ${seconds(event.ms)}; moving on`);
      } else if (event.outcome === 'done' && event.ms > slowMs) {
        log(`[stop] ${owner}: ${event.step} took ${seconds(event.ms)}`);
      }
    },
  });
}

/** A step that stops a child process: SIGTERM, then SIGKILL after `graceMs`. */
export const childStep = (name: string, child: ChildProcess | undefined, graceMs = 5_000): StopStep => [
  name,
  () => stopChild(child, graceMs),
];
