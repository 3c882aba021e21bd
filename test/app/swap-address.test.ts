import { describe, expect, it } from 'vitest';
import { addressWithSwap } from '../../app/(public)/_swap/swap-address';

describe('the swap page address naming the swap just executed (#46 item 1)', () => {
  it('adds the swap and keeps the rest of the address', () => {
    expect(addressWithSwap('https://x.test/?ref=abc#top', 'tx_0123456789abcdefghijKL')).toBe(
      '/?ref=abc&tx=tx_0123456789abcdefghijKL#top',
    );
  });

  it('replaces an earlier swap, and names none when started again', () => {
    expect(addressWithSwap('https://x.test/?tx=tx_old&ref=abc', 'tx_new')).toBe('/?tx=tx_new&ref=abc');
    expect(addressWithSwap('https://x.test/?tx=tx_old&ref=abc', null)).toBe('/?ref=abc');
    expect(addressWithSwap('https://x.test/?tx=tx_old', null)).toBe('/');
  });
});
