import { describe, expect, it } from 'vitest';
import { transactionSearchInput } from './transactions';

describe('the dashboard search bounds', () => {
  it('refuses a year Postgres cannot store (99999 answered 500 once data errors stopped mapping to 400)', () => {
    expect(transactionSearchInput.safeParse({ from: '99999-01-01 00:00:00+00' }).success).toBe(false);
    expect(transactionSearchInput.safeParse({ to: '1969-12-31T00:00:00Z' }).success).toBe(false);
    expect(transactionSearchInput.safeParse({ from: '2026-01-01', to: '2026-02-01' }).success).toBe(true);
  });
});
