import { z } from 'zod';
import { calendarDay } from '@/server/schemas/days';
import { issueField, plainFieldErrors } from '@/server/schemas/plain-words';
import { TRANSACTION_SORT_FIELDS, transactionSearchInput } from '@/server/schemas/transactions';
import { TX_STATUSES } from '@/server/transactions/statuses';

export type SearchInput = z.input<typeof transactionSearchInput>;
export const PER_PAGE = 25;

/** The date filters as typed (form) or written in the URL: real days, the end not before the start. */
export const dayRange = z
  .object({ from: calendarDay.optional(), to: calendarDay.optional() })
  .refine(({ from, to }) => !from || !to || from <= to, {
    path: ['to'],
    message: 'Choose an end date on or after the start date',
  });

export const DATE_NOUNS = { from: 'a start date', to: 'an end date' };

/** Validates the typed date filters; blanks are no filter. */
export function checkDayRange(values: { from?: string | null; to?: string | null }) {
  const typed = { from: values.from || undefined, to: values.to || undefined };
  const parsed = dayRange.safeParse(typed);
  return parsed.success ? {} : plainFieldErrors(parsed.error.issues, DATE_NOUNS);
}

/** A URL parameter that was left out of the search, and why, in words for the reader. */
export interface IgnoredParam {
  param: string;
  value: string;
  reason: string;
}

/** The URL parameter each procedure input key comes from. */
const PARAM_OF: Record<string, string> = {
  query: 'q',
  statuses: 'status',
  referralCode: 'ref',
  sort: 'sort',
  page: 'page',
  from: 'from',
  to: 'to',
  provider: 'provider',
  chain: 'chain',
  stale: 'stale',
  late: 'late',
};

/**
 * URL → procedure input. Server prefetch and client query both build their input here, so their
 * query keys match and the prefetched page hydrates. Keys are only present when set; a parameter
 * that cannot be used is left out and listed in `ignored`, so the page still answers and says so.
 */
export function searchFromParams(get: (key: string) => string | null | undefined): {
  input: SearchInput;
  ignored: IgnoredParam[];
} {
  const input: SearchInput = { perPage: PER_PAGE };
  const ignored: IgnoredParam[] = [];
  const text = (key: string) => get(key)?.trim() || undefined;
  const ignore = (param: string, reason: string) =>
    ignored.push({ param, value: (text(param) ?? '').slice(0, 64), reason });

  const query = text('q');
  if (query) input.query = query.slice(0, 256);
  const status = text('status');
  if (status) {
    const statuses = status.split(',').filter((s): s is (typeof TX_STATUSES)[number] => isStatus(s));
    if (statuses.length) input.statuses = statuses;
    if (statuses.length < status.split(',').length) ignore('status', `Choose statuses from ${TX_STATUSES.join(', ')}`);
  }
  const provider = text('provider');
  if (provider) input.provider = provider.slice(0, 32);
  const chain = text('chain');
  if (chain) input.chain = chain.slice(0, 32);

  const days = { from: text('from'), to: text('to') };
  const dayErrors = checkDayRange(days);
  for (const key of ['from', 'to'] as const) {
    const value = days[key];
    if (!value) continue;
    const reason = dayErrors[key];
    if (reason) ignore(key, reason);
    else input[key] = key === 'from' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
  }

  const referralCode = text('ref');
  if (referralCode) input.referralCode = referralCode.slice(0, 64);
  const stale = text('stale');
  if (stale === 'yes' || stale === 'no') input.stale = stale === 'yes';
  else if (stale) ignore('stale', 'Use stale=yes or stale=no');
  const late = text('late');
  if (late === 'yes' || late === 'no') input.late = late === 'yes';
  else if (late) ignore('late', 'Use late=yes or late=no');
  const sort = text('sort');
  const [field, direction] = (sort ?? '').split('.');
  if (isSortField(field) && (direction === 'asc' || direction === 'desc')) input.sort = { field, direction };
  else if (sort) ignore('sort', 'Sort by a column header instead');
  // The Late filter lists the most late first unless a column says otherwise.
  if (!input.sort && input.late) input.sort = { field: 'lateness', direction: 'desc' };
  const pageText = text('page');
  const page = Number(pageText);
  if (Number.isInteger(page) && page > 1 && page <= 100_000) input.page = page;
  else if (pageText && pageText !== '1') ignore('page', 'Use the Previous and Next buttons to change page');

  // What the procedure would still refuse (a page past the paged matches) is left out the same way.
  for (let tries = 0; tries < Object.keys(PARAM_OF).length; tries++) {
    const parsed = transactionSearchInput.safeParse(input);
    if (parsed.success) break;
    const key = issueField(parsed.error.issues[0] ?? { path: [] });
    if (!(key in input) || key === 'perPage') break;
    const param = PARAM_OF[key] ?? key;
    ignore(param, plainFieldErrors(parsed.error.issues, {})[key] ?? 'Check this value');
    delete input[key as keyof SearchInput];
  }
  return { input, ignored };
}

/** The Order control: the lateness sort either way, or the order the column headers set (value ''). */
export const ORDER_CHOICES = [
  ['', 'As the columns sort'],
  ['lateness.desc', 'Most late first'],
  ['lateness.asc', 'Least late first'],
] as const;

export const orderChoice = (input: SearchInput): string =>
  input.sort?.field === 'lateness' ? `lateness.${input.sort.direction}` : '';

/** The `sort` parameter for an Order choice; leaving lateness under the Late filter (whose default it is) says newest first. */
export const sortParamOf = (choice: string, input: SearchInput): string | null =>
  choice || (input.late ? 'createdAt.desc' : null);

/** The procedure input alone, for callers that only query. */
export const searchInputFromParams = (get: (key: string) => string | null | undefined) => searchFromParams(get).input;

const isStatus = (value: string): value is (typeof TX_STATUSES)[number] =>
  (TX_STATUSES as readonly string[]).includes(value);
const isSortField = (value: string | undefined): value is (typeof TRANSACTION_SORT_FIELDS)[number] =>
  (TRANSACTION_SORT_FIELDS as readonly string[]).includes(value ?? '');

/** The CSV export of a search: every match in the search's order, whatever page is shown. */
export function transactionsExportHref({ page: _page, perPage: _perPage, ...search }: SearchInput): string {
  return `/api/exports/transactions?input=${encodeURIComponent(JSON.stringify(search))}`;
}
