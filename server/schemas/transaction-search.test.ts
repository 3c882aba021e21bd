import { describe, expect, it } from 'vitest';
import { auditListInput } from '../audit/schemas';
import { transactionSearchInput } from './transactions';

describe('the dashboard search bounds', () => {
  it('refuses a year Postgres cannot store (99999 answered 500 once data errors stopped mapping to 400)', () => {
    expect(transactionSearchInput.safeParse({ from: '99999-01-01 00:00:00+00' }).success).toBe(false);
    expect(transactionSearchInput.safeParse({ to: '1969-12-31T00:00:00Z' }).success).toBe(false);
    expect(transactionSearchInput.safeParse({ from: '2026-01-01', to: '2026-02-01' }).success).toBe(true);
  });

  it('refuse it on the audit log too (a crafted `to` of 99999 reached Postgres: INTERNAL_SERVER_ERROR)', () => {
    expect(auditListInput.safeParse({ to: '99999-01-01 00:00:00+00' }).success).toBe(false);
    expect(auditListInput.safeParse({ from: '1969-12-31T00:00:00Z' }).success).toBe(false);
    expect(auditListInput.safeParse({ from: '2026-01-01', to: '2026-02-01' }).success).toBe(true);
  });
});
