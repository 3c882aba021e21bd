import { z } from 'zod';

/** Chart ranges for the dashboard's activity views. Pure: client components import these too. */

export const RANGES = ['24h', '7d', '30d'] as const;
export type Range = (typeof RANGES)[number];
export const rangeInput = z.object({ range: z.enum(RANGES).default('7d') });

/** How far back a chart looks and how wide each of its buckets is (a Postgres interval unit). */
export const RANGE_WINDOWS: Record<Range, { hours: number; bucket: 'hour' | 'day' }> = {
  '24h': { hours: 24, bucket: 'hour' },
  '7d': { hours: 7 * 24, bucket: 'day' },
  '30d': { hours: 30 * 24, bucket: 'day' },
};

/**
 * The window as ISO strings: the postgres.js client is shared with drizzle, which turns off its
 * Date serializers and timestamp parsers, so raw queries pass and receive timestamps as text.
 */
export function rangeWindow(range: Range, now = new Date()) {
  const { hours, bucket } = RANGE_WINDOWS[range];
  return { since: new Date(now.getTime() - hours * 3600_000).toISOString(), until: now.toISOString(), bucket };
}

/** A timestamp column read through the raw client (text, see above). */
export const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));
