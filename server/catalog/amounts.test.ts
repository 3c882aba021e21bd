import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, rescale, usdValue } from './amounts';

describe('amount conversion', () => {
  it.each([
    [6, '1234.567891', 1234567891n],
    [8, '0.00000001', 1n],
    [9, '123456789.123456789', 123456789123456789n],
    [18, '1.000000000000000001', 1000000000000000001n],
    [18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935', 2n ** 256n - 1n],
  ])('round-trips %i decimals: %s', (decimals, human, base) => {
    const parsed = parseAmount(human, decimals);
    expect(parsed).toEqual({ ok: true, base });
    expect(formatAmount(base, decimals)).toBe(human);
  });

  it('normalises trailing zeros on the way back', () => {
    const parsed = parseAmount('1.500000', 6);
    expect(parsed.ok && formatAmount(parsed.base, 6)).toBe('1.5');
  });

  it.each([
    ['abc', 'not_a_number'],
    ['1e18', 'not_a_number'],
    ['-1', 'not_a_number'],
    ['+1', 'not_a_number'],
    ['.5', 'not_a_number'],
    ['1.', 'not_a_number'],
    ['0', 'not_positive'],
    ['0.000000', 'not_positive'],
    ['1.0000001', 'too_many_decimals'],
    ['115792089237316195423570985008687907853269984665640564039458', 'too_large'],
  ])('refuses %s (%s) at 6 decimals', (human, problem) => {
    const decimals = problem === 'too_large' ? 18 : 6;
    expect(parseAmount(human, decimals)).toEqual({ ok: false, problem });
  });

  it('prices exactly in cents without floats', () => {
    expect(usdValue(1_500_000n, 6, '1')).toBe('1.50');
    expect(usdValue(10n ** 18n / 3n, 18, '3000')).toBe('1000.00');
    expect(usdValue(1n, 8, '95000')).toBe('0.00');
    expect(usdValue(123456789n, 8, '95000.5')).toBe('117284.57');
    expect(usdValue(1n, 8, null)).toBeNull();
  });

  it('rescales to and from THORChain 1e8 units', () => {
    expect(rescale(1_234_567_890_123_456_789n, 18, 8)).toBe(123_456_789n);
    expect(rescale(1_500_000n, 6, 8)).toBe(150_000_000n);
    expect(rescale(42n, 8, 8)).toBe(42n);
  });
});
