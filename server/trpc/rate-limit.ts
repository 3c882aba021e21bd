import type { AppContext } from '../context';
import { AppError } from '../errors';
import { addRateLimitHeaders, type RateDecision } from '../ratelimit/limiter';

function refused(decision: RateDecision): AppError {
  const headers: Record<string, string> = {};
  addRateLimitHeaders(headers, decision);
  return new AppError('RATE_LIMITED', `Too many dashboard requests; retry in ${decision.resetSeconds} s`, { headers });
}

/**
 * Counts one dashboard procedure call against its signed-in user's RATE_LIMIT_DASHBOARD budget (each
 * call of a batch counts); throws RATE_LIMITED with the rate-limit headers past it. A limiter that
 * cannot decide lets the call through, as the public API does.
 */
export async function limitDashboardCall(app: AppContext, userId: string): Promise<void> {
  if (!app.rateLimiter) return;
  let decision: RateDecision;
  try {
    decision = await app.rateLimiter.consume('dashboard', `user:${userId}`);
  } catch (error) {
    app.log.warn({ err: error }, 'rate limiter unavailable; dashboard call allowed');
    return;
  }
  if (!decision.allowed) throw refused(decision);
}

/** The headers a refused call's error carries (Retry-After, X-RateLimit-*), for the batch's response. */
export function rateLimitHeadersOf(errors: readonly { cause?: unknown }[]): Record<string, string> {
  const limited = errors
    .map((e) => e.cause)
    .find((c): c is AppError => c instanceof AppError && c.code === 'RATE_LIMITED');
  return limited?.headers ?? {};
}
