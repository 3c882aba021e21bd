import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  ExponentialBackoff,
  handleWhen,
  retry,
  wrap,
} from 'cockatiel';
import type { Redis } from 'ioredis';
import { type CallPurpose, createBudgetLimiter, takeFromBudget, withCallPurpose } from './budget';
import { ProviderError } from './errors';
import type { ProviderAdapter, ProviderKey, StatusInput } from './types';

export interface ResiliencePolicy {
  /** Consecutive upstream failures that open the breaker. */
  breakerThreshold: number;
  /** How long an open breaker waits before letting one trial call through. */
  halfOpenAfterMs: number;
  /** The provider's published request budget, shared by every process through Redis. */
  budget: { points: number; windowSeconds: number };
  /** Calls of each window that quote previews may not take: kept for lock, execute and status. */
  reservedPoints: number;
  /** Extra attempts for idempotent status reads. */
  statusRetries: number;
  /** The adapter charges its budget per upstream request itself (see RequestBudget): no charge per call here. */
  chargedPerRequest?: boolean;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

/** Where a breaker says it opened (with the failure that opened it) and closed again. */
export interface BreakerLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

export interface ResilientAdapter extends ProviderAdapter {
  /** A quote preview: like `quote`, but refused once only the reserved part of the budget is left. */
  previewQuote: ProviderAdapter['quote'];
  /** The worse of its two breakers (quote and execute calls; status reads): what an operator is shown. */
  breakerState(): BreakerState;
}

/**
 * Failures that say something about the provider's health; "no route" and refusals do not, nor does our
 * own budget refusing a call (RATE_LIMITED without an upstream status): an adapter charged per request
 * meets it inside the breaker, where counting it would shut out the very swaps the reserve keeps room for.
 */
const isUpstreamFailure = (error: unknown) =>
  error instanceof ProviderError &&
  (error.kind === 'UNAVAILABLE' ||
    error.kind === 'BAD_RESPONSE' ||
    (error.kind === 'RATE_LIMITED' && error.upstreamStatus !== undefined));

const SEVERITY: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };
const worse = (a: BreakerState, b: BreakerState) => (SEVERITY[a] >= SEVERITY[b] ? a : b);

const STATE_NAMES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'open',
};

/**
 * Wraps an adapter with a circuit breaker, a client-side rate limiter for the provider's published
 * limits, and retries for status reads. An open breaker or an exhausted budget answers at once
 * with a provider error, without calling upstream.
 */
export function withResilience(
  adapter: ProviderAdapter,
  policy: ResiliencePolicy,
  redis: Redis | undefined,
  redisPrefix: string,
  log?: BreakerLog,
): ResilientAdapter {
  const key: ProviderKey = adapter.key;
  const newBreaker = (calls: 'swaps' | 'status') => {
    const breaker = circuitBreaker(handleWhen(isUpstreamFailure), {
      halfOpenAfter: policy.halfOpenAfterMs,
      breaker: new ConsecutiveBreaker(policy.breakerThreshold),
    });
    breaker.onBreak((reason) => {
      const error = 'error' in reason ? reason.error : undefined;
      log?.warn(
        { provider: key, calls, lastError: error instanceof Error ? error.message : undefined },
        `${key} circuit breaker opened (${calls === 'swaps' ? 'quote and execute calls' : 'status reads'})`,
      );
    });
    breaker.onReset(() => log?.info({ provider: key, calls }, `${key} circuit breaker closed`));
    return breaker;
  };
  // Status reads have a breaker of their own: a provider's status API failing (each read retried, so
  // a few reads are many failures) must not refuse its quotes and executes, nor the other way round.
  const swapBreaker = newBreaker('swaps');
  const statusBreaker = newBreaker('status');
  const statusRetry = retry(
    handleWhen((e) => e instanceof ProviderError && e.kind === 'UNAVAILABLE'),
    { maxAttempts: policy.statusRetries, backoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 1000 }) },
  );
  const budget = policy.chargedPerRequest
    ? undefined
    : createBudgetLimiter(policy.budget, redis, `${redisPrefix}:upstream`);

  async function guarded<T>(
    breaker: CircuitBreakerPolicy,
    purpose: CallPurpose,
    work: () => Promise<T>,
    reserve = 0,
  ): Promise<T> {
    if (budget) {
      await takeFromBudget(budget, key, reserve, {
        reserved: "the rest of this provider's budget is kept for swaps in flight",
        usedUp: 'client-side budget for this provider is used up',
      });
    }
    try {
      return await breaker.execute(() => withCallPurpose(purpose, work));
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw new ProviderError(key, 'UNAVAILABLE', 'circuit breaker open');
      throw error;
    }
  }

  const statusPolicy = wrap(statusRetry);
  return {
    key,
    pollIntervalMs: adapter.pollIntervalMs,
    supports: (src, dst) => adapter.supports(src, dst),
    canTrack: (context, hash) => adapter.canTrack(context, hash),
    quote: (input, signal) => guarded(swapBreaker, 'swap', () => adapter.quote(input, signal)),
    previewQuote: (input, signal) =>
      guarded(swapBreaker, 'preview', () => adapter.quote(input, signal), policy.reservedPoints),
    execute: (input, signal) => guarded(swapBreaker, 'swap', () => adapter.execute(input, signal)),
    status: (input, signal) =>
      statusPolicy.execute(() => guarded(statusBreaker, 'status', () => adapter.status(input, signal)), signal),
    ...(adapter.findDeposits && {
      findDeposits: (input: StatusInput, signal: AbortSignal) =>
        guarded(statusBreaker, 'status', () => adapter.findDeposits?.(input, signal) ?? Promise.resolve([])),
    }),
    breakerState: () => worse(STATE_NAMES[swapBreaker.state], STATE_NAMES[statusBreaker.state]),
  };
}
