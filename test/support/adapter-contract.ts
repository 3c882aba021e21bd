import { expect, it } from 'vitest';
import { isProviderError, type ProviderErrorKind } from '../../server/providers/errors';
import type { Fault, RunningSimulator } from '../../server/providers/simulator-kit';
import type { ProviderAdapter, ProviderRoute, StatusInput, StatusResult } from '../../server/providers/types';
import { testSignal } from './route-assets';

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

/** Scripts one swap's ending on a running simulator through its `POST /__sim/scripts`; the HTTP status. */
export async function scriptOutcome(simulatorUrl: string, key: string, outcome: string): Promise<number> {
  const response = await fetch(`${simulatorUrl}/__sim/scripts`, {
    method: 'POST',
    body: JSON.stringify({ scripts: [{ key, outcome }] }),
  });
  return response.status;
}

/** What a poller is answered, in order: status reads of one swap until `done` holds, `max` reads at most. */
export async function statusWalk(
  adapter: ProviderAdapter,
  input: StatusInput,
  done: (result: StatusResult) => boolean,
  max: number,
): Promise<StatusResult[]> {
  const seen: StatusResult[] = [];
  for (let poll = 0; poll < max; poll++) {
    const result = await adapter.status(input, testSignal());
    seen.push(result);
    if (done(result)) break;
  }
  return seen;
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
