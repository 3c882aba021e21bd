import type { z } from 'zod';
import { TRANSACTION_SORT_FIELDS, type transactionSearchInput } from '@/server/schemas/transactions';
import { TX_STATUSES } from '@/server/transactions/statuses';

export type SearchInput = z.input<typeof transactionSearchInput>;
export const PER_PAGE = 25;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * URL → procedure input. Server prefetch and client query both build their input here, so their
 * query keys match and the prefetched page hydrates. Keys are only present when set.
 */
export function searchInputFromParams(get: (key: string) => string | null | undefined): SearchInput {
  const input: SearchInput = { perPage: PER_PAGE };
  const text = (key: string) => get(key)?.trim() || undefined;
  const query = text('q');
  if (query) input.query = query.slice(0, 256);
  const statuses = text('status')
    ?.split(',')
    .filter((s): s is (typeof TX_STATUSES)[number] => (TX_STATUSES as readonly string[]).includes(s));
  if (statuses?.length) input.statuses = statuses;
  const provider = text('provider');
  if (provider) input.provider = provider.slice(0, 32);
  const chain = text('chain');
  if (chain) input.chain = chain.slice(0, 32);
  const from = text('from');
  if (from && DATE.test(from)) input.from = `${from}T00:00:00.000Z`;
  const to = text('to');
  if (to && DATE.test(to)) input.to = `${to}T23:59:59.999Z`;
  const referralCode = text('ref');
  if (referralCode) input.referralCode = referralCode.slice(0, 64);
  const stale = text('stale');
  if (stale === 'yes' || stale === 'no') input.stale = stale === 'yes';
  const [field, direction] = (text('sort') ?? '').split('.');
  if (
    (TRANSACTION_SORT_FIELDS as readonly string[]).includes(field ?? '') &&
    (direction === 'asc' || direction === 'desc')
  ) {
    input.sort = { field: field as (typeof TRANSACTION_SORT_FIELDS)[number], direction };
  }
  const page = Number(text('page'));
  if (Number.isInteger(page) && page > 1 && page <= 100_000) input.page = page;
  return input;
}
