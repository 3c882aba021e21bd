const SECOND = 1000;
const MINUTE = 60 * SECOND;

export interface CadenceInput {
  ageMs: number;
  providerIntervalMs: number;
  minIntervalMs: number;
  consecutiveErrors: number;
  rateLimited: boolean;
  timeScale: number;
}

/** Quick while a swap is young, slower as it ages, never faster than the provider's documented cadence. */
export function nextPollDelay(input: CadenceInput): number {
  const byAge =
    input.ageMs < 10 * MINUTE
      ? 5 * SECOND
      : input.ageMs < 60 * MINUTE
        ? 30 * SECOND
        : input.ageMs < 6 * 60 * MINUTE
          ? 2 * MINUTE
          : 5 * MINUTE;
  let delay = Math.max(byAge, input.providerIntervalMs, input.minIntervalMs);
  if (input.consecutiveErrors > 0) delay = Math.min(5 * MINUTE, delay * 2 ** Math.min(input.consecutiveErrors, 6));
  if (input.rateLimited) delay = Math.max(delay, MINUTE);
  return Math.max(1, Math.round(delay * input.timeScale));
}

/** A failed swap is watched a while longer at the slowest cadence, since a refund may still follow. */
export const REFUND_WATCH_INTERVAL_MS = 5 * MINUTE;
