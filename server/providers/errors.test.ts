import { describe, expect, it } from 'vitest';
import { ProviderError, providerAppError } from './errors';

describe('providerAppError', () => {
  it("keeps the upstream's own words out of the public message of a refusal", () => {
    const upstream = 'bad destination address: 0xdead is not recognizable (node thor-7, height 19500000)';
    const error = providerAppError(new ProviderError('THORCHAIN', 'REJECTED', upstream, 500), 'THORCHAIN');
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', status: 409 });
    expect(error.message).toBe('THORChain refused this swap; try another route or amount');
    expect(error.message).not.toContain('0xdead');
  });

  it('tells the client to re-lock when the locked terms can no longer be honoured', () => {
    const error = providerAppError(new ProviderError('RELAY', 'TERMS_CHANGED', 'expected 1 now, below 2'), 'RELAY');
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', status: 409 });
    expect(error.message).toMatch(/request a new quote and lock/);
    expect(error.message).not.toContain('expected 1');
  });
});
