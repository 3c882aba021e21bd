import { providerName } from '../catalog/names';
import { AppError } from '../errors';
import type { ProviderKey } from './types';

export type ProviderErrorKind =
  | 'NO_ROUTE'
  | 'UNAVAILABLE'
  | 'BAD_RESPONSE'
  | 'RATE_LIMITED'
  | 'REJECTED'
  | 'TERMS_CHANGED';

/**
 * What went wrong upstream: no route (not an error for quote), unavailable (timeouts, 5xx, network,
 * open breaker), rate limited, a body we could not read, a request the provider refused, or a
 * fresh quote at execute that can no longer honour the locked terms.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderKey,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  get retryable(): boolean {
    return this.kind === 'UNAVAILABLE' || this.kind === 'RATE_LIMITED';
  }
}

export const isProviderError = (e: unknown): e is ProviderError => e instanceof ProviderError;

/**
 * The public error for a provider failure on lock or execute, naming the provider as people read it. Messages are ours: the upstream's own
 * words stay in the ProviderError for logs and the support timeline.
 */
export function providerAppError(error: unknown, key: string): AppError {
  if (error instanceof AppError) return error;
  const provider = providerName(key);
  if (error instanceof ProviderError) {
    if (error.kind === 'NO_ROUTE') {
      return new AppError('PROVIDER_UNAVAILABLE', `${provider} no longer offers this route`, {
        status: 409,
        field: 'provider',
      });
    }
    if (error.kind === 'BAD_RESPONSE') {
      return new AppError('BAD_GATEWAY', `${provider} returned an unreadable answer`, { status: 502 });
    }
    if (error.kind === 'REJECTED') {
      return new AppError('PROVIDER_UNAVAILABLE', `${provider} refused this swap; try another route or amount`, {
        status: 409,
        field: 'provider',
      });
    }
    if (error.kind === 'TERMS_CHANGED') {
      return new AppError(
        'PROVIDER_UNAVAILABLE',
        `${provider}'s price moved below the locked minimum received; request a new quote and lock`,
        { status: 409, field: 'provider' },
      );
    }
    return new AppError('PROVIDER_UNAVAILABLE', `${provider} is unavailable right now; retry shortly`, {
      status: 503,
      field: 'provider',
    });
  }
  return new AppError('PROVIDER_UNAVAILABLE', `${provider} is unavailable right now; retry shortly`, {
    status: 503,
    field: 'provider',
  });
}
