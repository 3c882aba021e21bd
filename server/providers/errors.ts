import { AppError } from '../errors';
import type { ProviderKey } from './types';

export type ProviderErrorKind = 'NO_ROUTE' | 'UNAVAILABLE' | 'BAD_RESPONSE' | 'RATE_LIMITED' | 'REJECTED';

/**
 * What went wrong upstream: no route (not an error for quote), unavailable (timeouts, 5xx, network,
 * open breaker), rate limited, a body we could not read, or a request the provider refused.
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

/** The public error for a provider failure on lock or execute (spec §7 and architecture §4). */
export function providerAppError(error: unknown, provider: string): AppError {
  if (error instanceof AppError) return error;
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
      return new AppError('PROVIDER_UNAVAILABLE', `${provider} refused the request: ${error.message}`, {
        status: 409,
        field: 'provider',
      });
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
