/**
 * The soak's verdict. Correctness decides it (nothing lost, no double execute, no wrong ending, no 5xx
 * outside an outage, redelivery): any miss fails the run. Load is judged against the capacity the same
 * machine showed in the same run, the rate each driver kept before the first fault, so a run on a
 * small or shared machine is not failed for being small or shared; the absolute rates and the issue's
 * floors are reported beside it. Pure: the soak's figures in, the judgement out.
 */
import type { DeployOutcome } from './deploy';

/** A driver's count sampled over the run: `at` in ms since the start. */
export interface Sample {
  at: number;
  count: number;
}

export interface LoadInput {
  name: string;
  /** How many the driver did over the whole run. */
  count: number;
  /** The issue's floor for this run's length (SOAK_SECONDS / 600 of the full-run figure). */
  floor: number;
  durationMs: number;
  /** The driver's count over time. */
  samples: Sample[];
  /** When the first fault was injected (ms since the start): before it the machine ran unfaulted. */
  firstFaultAt: number;
}

export interface LoadJudgement {
  name: string;
  count: number;
  floor: number;
  perSecond: number;
  /** The rate before the first fault (the machine's unfaulted capacity for this mix), or null when too short. */
  unfaultedPerSecond: number | null;
  /** perSecond / unfaultedPerSecond: how much of its own capacity the product kept through the faults. */
  shareOfUnfaulted: number | null;
  floorMet: boolean;
  ok: boolean;
  reason: string;
}

/** Under chaos (a fault every few seconds) the product must keep at least this share of its unfaulted rate. */
export const LOAD_SHARE_MIN = 0.6;
/** A shorter unfaulted window says too little about capacity: then the floor alone judges. */
export const MIN_UNFAULTED_MS = 5_000;
/** The first seconds are the drivers ramping up (pool fills, JIT), not capacity. */
export const WARM_UP_MS = 3_000;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The count at `at`, read off the samples (the last sample taken at or before it). */
function countAt(samples: Sample[], at: number): number {
  let count = 0;
  for (const s of samples) {
    if (s.at > at) break;
    count = s.count;
  }
  return count;
}

export function judgeLoad(input: LoadInput): LoadJudgement {
  const { name, count, floor, durationMs, samples, firstFaultAt } = input;
  const perSecond = durationMs > 0 ? count / (durationMs / 1000) : 0;
  const from = Math.min(WARM_UP_MS, firstFaultAt);
  const windowMs = firstFaultAt - from;
  const unfaulted =
    windowMs >= MIN_UNFAULTED_MS ? (countAt(samples, firstFaultAt) - countAt(samples, from)) / (windowMs / 1000) : null;
  const share = unfaulted && unfaulted > 0 ? perSecond / unfaulted : null;
  const floorMet = count >= floor;
  const shareMet = share !== null && share >= LOAD_SHARE_MIN;
  const ok = floorMet || shareMet;
  const rates = `${round2(perSecond)}/s over the run, ${unfaulted === null ? 'no unfaulted window' : `${round2(unfaulted)}/s unfaulted`}`;
  const reason = floorMet
    ? `${count} ≥ floor ${floor} (${rates})`
    : shareMet
      ? `${count} below the floor ${floor}, but ${Math.round((share as number) * 100)}% of this machine's unfaulted rate (${rates})`
      : `${count} below the floor ${floor} and ${share === null ? 'no capacity measured' : `${Math.round(share * 100)}% of this machine's unfaulted rate`} (under ${LOAD_SHARE_MIN * 100}%; ${rates})`;
  return {
    name,
    count,
    floor,
    perSecond: round2(perSecond),
    unfaultedPerSecond: unfaulted === null ? null : round2(unfaulted),
    shareOfUnfaulted: share === null ? null : round2(share),
    floorMet,
    ok,
    reason,
  };
}

/** The run's verdict: every correctness failure, and load only where it fell short of the machine's own capacity. */
export function verdict(correctness: string[], load: LoadJudgement[]) {
  const loadFailures = load.filter((l) => !l.ok).map((l) => `${l.name}: ${l.reason}`);
  return {
    passed: correctness.length === 0 && loadFailures.length === 0,
    failures: [...correctness, ...loadFailures],
    /** Floors missed on a machine that kept its own pace: reported, not failed. */
    notes: load.filter((l) => l.ok && !l.floorMet).map((l) => `${l.name}: ${l.reason}`),
  };
}

/** What a deploy window's clients saw (the recorder's outage for it). */
export interface DeployWindow {
  byStatus: Record<string, number>;
  serverErrorsDuring: number;
}

/**
 * A rolling deploy drops nothing: no 5xx and no unanswered request even inside its own window, the
 * migration applied, every process drained and stopped by itself (exit 0), every status stream ended
 * by the server and resumed without a repeat. Pure: the deploys and their windows in, the failures out.
 */
export function judgeDeploys(deploys: DeployOutcome[], windows: DeployWindow[]): string[] {
  const failures: string[] = [];
  const serverErrors = windows.reduce((n, w) => n + w.serverErrorsDuring, 0);
  const unanswered = windows.reduce((n, w) => n + (w.byStatus['0'] ?? 0), 0);
  if (serverErrors) failures.push(`${serverErrors} 5xx during deploys`);
  if (unanswered) failures.push(`${unanswered} requests without an answer (connection errors) during deploys`);
  for (const [i, d] of deploys.entries()) {
    if (d.migration.error) failures.push(`deploy ${i + 1}: migration failed: ${d.migration.error}`);
    for (const step of d.steps)
      if (step.exit !== '0') failures.push(`deploy ${i + 1}: ${step.process} did not drain and exit 0 (${step.exit})`);
    for (const problem of d.streams.problems) failures.push(`deploy ${i + 1}: ${problem}`);
  }
  return failures;
}
