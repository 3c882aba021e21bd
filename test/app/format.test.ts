import { describe, expect, it } from 'vitest';
import { formatAmount, formatExactAmount, formatSecondsBucket, formatTokenAmount } from '../../app/_kit/format';

describe('formatAmount: the one display rule for token amounts', () => {
  it('cuts to 8 decimals without rounding up, drops trailing zeros and groups thousands', () => {
    expect(formatAmount('7.405047458996875', 'ETH')).toBe('7.40504745 ETH');
    expect(formatAmount('0.999999999999', 'ETH')).toBe('0.99999999 ETH');
    expect(formatAmount('2500.50000000', 'USDC')).toBe('2,500.5 USDC');
    expect(formatAmount('1234567')).toBe('1,234,567');
    expect(formatAmount('0.000000001', 'ETH')).toBe('0 ETH');
  });

  it('shows a missing value as a dash and anything that is not a plain decimal as it came', () => {
    expect(formatAmount(null)).toBe('—');
    expect(formatAmount('')).toBe('—');
    expect(formatAmount('1e-7', 'BTC')).toBe('1e-7 BTC');
  });

  it('keeps what a person must send or approve exact', () => {
    expect(formatTokenAmount('2500000001', { decimals: 6, symbol: 'USDC' })).toBe('2,500.000001 USDC');
  });
});

describe('a time read from the lock histogram buckets', () => {
  it('says milliseconds under a second (32-51 ms executes read "0 ms" before), under a second for the first edge', () => {
    expect(formatSecondsBucket(0)).toBe('under 1 s');
    expect(formatSecondsBucket(0.042)).toBe('42 ms');
    expect(formatSecondsBucket(0.37)).toBe('370 ms');
    expect(formatSecondsBucket(3)).toBe('3.0 s');
    expect(formatSecondsBucket(null)).toBe('—');
  });
});

describe('an amount to send exactly', () => {
  it('keeps every digit and groups thousands as the approval beside it does (#46 item 8)', () => {
    expect(formatExactAmount('2500', 'USDC')).toBe('2,500 USDC');
    expect(formatTokenAmount('2500000000', { decimals: 6, symbol: 'USDC' })).toBe('2,500 USDC');
    expect(formatExactAmount('1234567.123456789012345678', 'ETH')).toBe('1,234,567.123456789012345678 ETH');
    expect(formatExactAmount('0.25', 'BTC')).toBe('0.25 BTC');
    expect(formatExactAmount('1e3', 'X')).toBe('1e3 X');
  });
});
