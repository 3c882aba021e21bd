/**
 * How a window `[since, now]` is read: raw rows before its first whole hour, whole days from daily
 * rollups and the rest of the whole hours from hourly ones up to where the rollup has reached, and
 * raw rows after that. Hours and days are UTC.
 */

export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;

export interface Span {
  from: Date;
  to: Date;
}

export interface WindowParts {
  /** Raw rows with `from <= created_at < to`. */
  raw: Span[];
  /** Whole hours `from <= hour < to` of hourly rollups. */
  hours: Span[];
  /** Whole days of daily rollups, or none. */
  days: Span | null;
  /** Where the rollups' part begins (the first whole hour), or null when everything is read raw. */
  rolledFrom: Date | null;
}

const span = (from: number, to: number): Span[] => (from < to ? [{ from: new Date(from), to: new Date(to) }] : []);

/**
 * `rolledUntil`: rollups hold every row created before it (an hour boundary); `'all'` when they
 * hold every row, the current hour included (the swaps' rollups: their unfolded deltas are read
 * with them). `useDays`: read whole days from daily rollups (ranges charted by day).
 */
export function windowParts(since: Date, now: Date, rolledUntil: Date | null | 'all', useDays: boolean): WindowParts {
  const start = since.getTime();
  const end = now.getTime() + 1;
  const firstHour = ceilTo(start, HOUR_MS);
  const rolledEnd =
    rolledUntil === 'all' ? ceilTo(end, HOUR_MS) : rolledUntil === null ? 0 : floorTo(rolledUntil.getTime(), HOUR_MS);
  if (rolledEnd <= firstHour) return { raw: span(start, end), hours: [], days: null, rolledFrom: null };
  const raw = [...span(start, firstHour), ...span(rolledEnd, end)];
  const rolledFrom = new Date(firstHour);
  const firstDay = ceilTo(firstHour, DAY_MS);
  // Rollups that hold everything hold the whole of today too: its daily row is read for it.
  const lastDay = rolledUntil === 'all' ? ceilTo(end, DAY_MS) : floorTo(rolledEnd, DAY_MS);
  if (!useDays || firstDay >= lastDay) return { raw, hours: span(firstHour, rolledEnd), days: null, rolledFrom };
  return {
    raw,
    hours: [...span(firstHour, firstDay), ...span(lastDay, Math.max(lastDay, rolledEnd))],
    days: { from: new Date(firstDay), to: new Date(lastDay) },
    rolledFrom,
  };
}

/** Every bucket start from `since`'s bucket to `until`'s, as the charts show them. */
export function bucketStarts(since: Date, until: Date, bucket: 'hour' | 'day'): Date[] {
  const unit = bucket === 'hour' ? HOUR_MS : DAY_MS;
  const out: Date[] = [];
  for (let t = floorTo(since.getTime(), unit); t <= until.getTime(); t += unit) out.push(new Date(t));
  return out;
}

/** A bucket start as a lookup key, whatever form (Date, Postgres text) it came in. */
export const bucketKey = (value: string | Date) => (value instanceof Date ? value : new Date(value)).getTime();
