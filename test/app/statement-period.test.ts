import { describe, expect, it } from 'vitest';
import { monthPeriod, thisMonth } from '../../app/(dashboard)/dashboard/affiliates/statement-period';

describe("the statement panel's month", () => {
  it('is its first and last UTC day, leap years included', () => {
    expect(monthPeriod('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthPeriod('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthPeriod('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(thisMonth(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
  });
});
