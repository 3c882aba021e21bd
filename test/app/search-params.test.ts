import { describe, expect, it } from 'vitest';
import {
  checkDayRange,
  ORDER_CHOICES,
  orderChoice,
  searchFromParams,
  searchInputFromParams,
  sortParamOf,
} from '../../app/(dashboard)/dashboard/transactions/search-params';
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

  it('says which parameters it left out and why, in words, keeping the rest', () => {
    const params = new URLSearchParams('q=0xabc&from=2026-13-45&to=2026-02-31&status=PENDING,BOGUS&page=-2');
    const { input, ignored } = searchFromParams((key) => params.get(key));
    expect(input).toEqual({ perPage: 25, query: '0xabc', statuses: ['PENDING'] });
    expect(transactionSearchInput.safeParse(input).success).toBe(true);
    expect(ignored).toEqual([
      { param: 'status', value: 'PENDING,BOGUS', reason: 'Choose statuses from PENDING, SUCCESS, FAILED, REFUND' },
      { param: 'from', value: '2026-13-45', reason: 'Enter a date as YYYY-MM-DD, like 2026-01-31' },
      { param: 'to', value: '2026-02-31', reason: 'Enter a date as YYYY-MM-DD, like 2026-01-31' },
      { param: 'page', value: '-2', reason: 'Use the Previous and Next buttons to change page' },
    ]);
  });

  it('ignores an end date before the start date, and a page past the paged matches, with a notice', () => {
    const params = new URLSearchParams('from=2026-03-02&to=2026-03-01&page=401');
    const { input, ignored } = searchFromParams((key) => params.get(key));
    expect(input).toEqual({ perPage: 25, from: '2026-03-02T00:00:00.000Z' });
    expect(ignored.map(({ param, reason }) => [param, reason])).toEqual([
      ['to', 'Choose an end date on or after the start date'],
      ['page', 'Only the first 10,000 matches can be paged through; narrow the search'],
    ]);
  });
});

describe('the Order control', () => {
  it('writes a sort the URL reads back as the same choice, under the Late filter too', () => {
    for (const filters of ['', 'late=yes&', 'late=no&']) {
      for (const [choice] of ORDER_CHOICES) {
        const sort = sortParamOf(choice, from(filters));
        const input = from(`${filters}${sort ? `sort=${sort}` : ''}`);
        expect(orderChoice(input), `${filters}${choice}`).toBe(choice);
      }
    }
    expect(from('sort=lateness.asc').sort).toEqual({ field: 'lateness', direction: 'asc' });
    expect(orderChoice(from('sort=amountUsd.desc'))).toBe('');
    // Leaving lateness keeps the URL as short as the columns' default allows.
    expect(sortParamOf('', from('sort=lateness.desc'))).toBeNull();
  });
});

describe('the typed date filters', () => {
  it('accept blank and real days, and word every other input for the field', () => {
    expect(checkDayRange({ from: '', to: null })).toEqual({});
    expect(checkDayRange({ from: '2024-02-29', to: '2024-02-29' })).toEqual({});
    expect(checkDayRange({ from: '2026-1-5', to: 'tomorrow' })).toEqual({
      from: 'Enter a date as YYYY-MM-DD, like 2026-01-31',
      to: 'Enter a date as YYYY-MM-DD, like 2026-01-31',
    });
    expect(checkDayRange({ from: '2025-02-29' })).toEqual({ from: 'Enter a date as YYYY-MM-DD, like 2026-01-31' });
    expect(checkDayRange({ from: '2026-05-02', to: '2026-05-01' })).toEqual({
      to: 'Choose an end date on or after the start date',
    });
  });
});
