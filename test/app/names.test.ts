import { describe, expect, it } from 'vitest';
import { chainName, evmChainName, providerName } from '@/server/catalog/names';
import { PROVIDER_KEYS } from '@/server/providers/keys';

describe('the naming table', () => {
  it('names every provider and chain a person reads, never its key', () => {
    expect(PROVIDER_KEYS.map(providerName)).toEqual(['THORChain', 'Relay', 'Chainflip', 'LI.FI']);
    expect(chainName('bitcoin')).toBe('Bitcoin');
    expect(chainName('ethereum')).toBe('Ethereum');
    expect(evmChainName(42161)).toBe('Arbitrum');
    expect(evmChainName(1)).toBe('Ethereum');
  });

  it('shows a key it does not know as it is', () => {
    expect(chainName('notachain')).toBe('notachain');
    expect(providerName('ACME')).toBe('ACME');
    expect(evmChainName(999_999_999)).toBeUndefined();
  });
});
