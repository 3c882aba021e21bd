import { z } from 'zod';
import { decodeCursor } from '../keyset-cursor';

export const MAX_PAGE = 100_000;
export const MAX_SEARCH_LENGTH = 100;

const integerParam = (field: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${field} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `${field} must be at least ${min}`).max(max, `${field} must be at most ${max}`));

/** `page` and `perPage` with each endpoint's own default and maximum. */
export function paginationQuery(defaultPerPage: number, maxPerPage: number) {
  return {
    page: integerParam('page', 1, MAX_PAGE).default(1),
    perPage: integerParam('perPage', 1, maxPerPage).default(defaultPerPage),
  };
}

export const searchParam = z.string().trim().max(MAX_SEARCH_LENGTH, `at most ${MAX_SEARCH_LENGTH} characters`);

export const booleanParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A parameter given once, repeated, or comma-separated, flattened to a list. */
export function listParam<T extends z.ZodType<unknown, string>>(item: T, maxItems: number) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(maxItems, `at most ${maxItems} values`));
}

export interface Page {
  page: number;
  perPage: number;
}

export interface Paginated<T> extends Page {
  items: T[];
  total: number;
}

export const offsetOf = ({ page, perPage }: Page) => (page - 1) * perPage;

export function toV1List<T>({ items, page, perPage, total }: Paginated<T>) {
  return { data: items, pagination: { page, perPage, total, hasMore: page * perPage < total } };
}

const NUL = '\u0000';

/** Text Postgres can store: a NUL would reach a statement and fail there, as our error rather than the client's. */
export const storable = <T extends z.ZodString>(text: T) =>
  text.refine((value) => !value.includes(NUL), 'must not contain NUL characters');

/** A filter's date bound: a real date in years 1970–9999 (Postgres refuses the six-digit years a JS Date can hold). */
export const dateBound = z.coerce
  .date()
  .refine((d) => d.getUTCFullYear() >= 1970 && d.getUTCFullYear() <= 9999, 'Use a date between 1970 and 9999');

/** A dashboard record key: a transaction, lock or user id. */
export const recordId = storable(z.string().trim().min(1).max(64));

const CALENDAR_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)?([+-])(\d{2})(?::(\d{2}))?$/;

/** A time Postgres accepts: a day its month has, a clock time, an offset within ±15:59. */
function isCalendarTime(text: string): boolean {
  const parts = CALENDAR_TIME.exec(text)?.slice(1);
  if (!parts) return false;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = parts.map((p) => Number(p ?? 0));
  const date = new Date(Date.UTC(year as number, (month as number) - 1, day as number));
  return (
    (year as number) >= 1 &&
    date.getUTCMonth() === (month as number) - 1 &&
    date.getUTCDate() === day &&
    (hour as number) <= 23 &&
    (minute as number) <= 59 &&
    (second as number) <= 59 &&
    (offsetHours as number) <= 15 &&
    (offsetMinutes as number) <= 59
  );
}

function isKeysetCursor(cursor: string): boolean {
  try {
    return isCalendarTime(decodeCursor(cursor).createdAt);
  } catch {
    return false;
  }
}

/** A keyset cursor as this API returns them: its position is a real time and a key, else a 400 on the field. */
export const keysetCursorParam = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'too long')
  .regex(/^[A-Za-z0-9_-]+$/, 'not a cursor this API returned')
  .refine(isKeysetCursor, 'not a cursor this API returned');
