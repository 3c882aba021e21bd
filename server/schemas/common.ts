import { z } from 'zod';

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
