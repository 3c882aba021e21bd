import type { AppContext } from '../context';
import type { BreakerState } from './resilience';

export interface ProviderHealth {
  key: string;
  enabled: boolean;
  breaker: BreakerState;
}

/** This process's view of each enabled provider's circuit breaker. */
export function providerHealth(ctx: AppContext): ProviderHealth[] {
  return ctx.providers.list().map((adapter) => ({ key: adapter.key, enabled: true, breaker: adapter.breakerState() }));
}
