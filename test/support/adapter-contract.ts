import { expect, it } from 'vitest';
import { isProviderError, type ProviderErrorKind } from '../../server/providers/errors';
import type { Fault, RunningSimulator } from '../../server/providers/simulator-kit';
import type { ProviderRoute } from '../../server/providers/types';

/** The kind of ProviderError a call fails with; fails the test when it succeeds or throws anything else. */
export async function providerErrorKind(promise: Promise<unknown>): Promise<ProviderErrorKind> {
  try {
    await promise;
  } catch (error) {
    if (isProviderError(error)) return error.kind;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

/**
 * The fault contract every adapter's quote keeps against its simulator: slow and hanging upstreams
 * are UNAVAILABLE within the caller's deadline, 5xx/429/malformed/oversized/redirect are classified,
 * and the provider's own "no route" is an empty list.
 */
export function quoteFaultContract(
  sim: () => RunningSimulator,
  quote: (signal: AbortSignal) => Promise<ProviderRoute[]>,
) {
  it('slow beyond the deadline → UNAVAILABLE', async () => {
    sim().configure({ faults: { quote: 'slow' }, slowMs: 1500 });
    expect(await providerErrorKind(quote(AbortSignal.timeout(300)))).toBe('UNAVAILABLE');
  });

  it('hang → UNAVAILABLE within the deadline', async () => {
    sim().configure({ faults: { quote: 'hang' } });
    const started = Date.now();
    expect(await providerErrorKind(quote(AbortSignal.timeout(400)))).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it.each([
    ['error5xx', 'UNAVAILABLE'],
    ['ratelimit', 'RATE_LIMITED'],
    ['malformed', 'BAD_RESPONSE'],
    ['oversized', 'BAD_RESPONSE'],
    ['redirect', 'BAD_RESPONSE'],
  ] as [Fault, ProviderErrorKind][])('%s → %s', async (fault, kind) => {
    sim().configure({ faults: { quote: fault } });
    expect(await providerErrorKind(quote(AbortSignal.timeout(2500)))).toBe(kind);
  });

  it('noroute → []', async () => {
    sim().configure({ faults: { quote: 'noroute' } });
    expect(await quote(AbortSignal.timeout(2500))).toEqual([]);
  });
}
