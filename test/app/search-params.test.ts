import { describe, expect, it } from 'vitest';
import { searchInputFromParams } from '../../app/(dashboard)/dashboard/transactions/search-params';
import { transactionSearchInput } from '../../server/schemas/transactions';

const from = (query: string) => {
  const params = new URLSearchParams(query);
  return searchInputFromParams((key) => params.get(key));
};

describe('transactions page URL → search input', () => {
  it('maps every filter, sort and page, and the result passes the procedure schema', () => {
    const input = from(
      'q=0xABC&status=PENDING,FAILED&provider=RELAY&chain=bitcoin&from=2026-01-02&to=2026-01-03&ref=desk&stale=yes&sort=amountUsd.asc&page=3',
    );
    expect(input).toEqual({
      perPage: 25,
      query: '0xABC',
      statuses: ['PENDING', 'FAILED'],
      provider: 'RELAY',
      chain: 'bitcoin',
      from: '2026-01-02T00:00:00.000Z',
      to: '2026-01-03T23:59:59.999Z',
      referralCode: 'desk',
      stale: true,
      sort: { field: 'amountUsd', direction: 'asc' },
      page: 3,
    });
    expect(transactionSearchInput.safeParse(input).success).toBe(true);
  });

  it('drops anything malformed instead of failing the page', () => {
    const input = from('status=BOGUS&from=yesterday&sort=hash.sideways&page=-2&stale=maybe');
    expect(input).toEqual({ perPage: 25 });
    expect(transactionSearchInput.safeParse(input).success).toBe(true);
  });
});
