import { describe, expect, it } from 'vitest';
import { chains } from './catalog-data';

describe('seeded chains', () => {
  it('each have an https block-explorer template for transactions, filled by {hash}', () => {
    for (const chain of chains) {
      expect(chain.explorerTxUrl, chain.key).toMatch(/^https:\/\/[^/]+\/.*\{hash\}/);
    }
  });
});
