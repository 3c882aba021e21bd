import type { HistogramCounts } from '../../drizzle/schema';

/**
 * Fixed buckets for durations, so rollups of any hours add up bucket by bucket and a percentile of
 * a month is read from a few hundred counts. Each bucket stands for its lower bound: values on a
 * bound give exactly what `percentile_cont` gives; others are within one bucket's width (a second
 * up to a minute to execute, 5 % or less of a quote's latency). The bounds are part of the stored
 * rollups: changing them means rolling the stored hours up again.
 */
export interface HistogramScale {
  /** Ascending lower bounds, the first 0. Bucket `i` (1-based, as `width_bucket` numbers it) starts at `bounds[i - 1]`. */
  bounds: number[];
  /**
   * Finer buckets inside the first one, [0, bounds[1]): each stored under its own lower bound, a key under 1
   * (`0.042`), beside the whole buckets' numbers. A stored `1` (written before them) still reads as its whole bucket.
   */
  fine?: { below: number; perUnit: number }[];
}

const steps = (from: number, to: number, step: number) =>
  Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);

/** Whole seconds up to two hours; under a second, milliseconds (to 100 ms) and hundredths: executes often take 30-50 ms. */
export const SECONDS_TO_EXECUTE: HistogramScale = {
  bounds: [...steps(0, 60, 1), ...steps(60, 120, 5), ...steps(120, 600, 30), ...steps(600, 3600, 300), 3600, 7200],
  fine: [
    { below: 0.1, perUnit: 1000 },
    { below: 1, perUnit: 100 },
  ],
};

/**
 * The SQL for the key a value is counted under: its fine bucket's lower bound below the first whole bound,
 * else its `width_bucket` number. `value` is an SQL expression, trusted (never input).
 */
export function histogramKeySql(scale: HistogramScale, value: string): string {
  const whole = `width_bucket(${value}, '{${scale.bounds.join(',')}}'::float8[])::float8`;
  const fine = (scale.fine ?? []).map(
    ({ below, perUnit }) => `when ${value} < ${below} then floor(${value} * ${perUnit}) / ${perUnit}`,
  );
  return fine.length ? `case ${fine.join(' ')} else ${whole} end` : whole;
}

/** Where a stored key's bucket starts: a fine key is its own lower bound, a whole bucket's number indexes `bounds`. */
const lowerBound = (scale: HistogramScale, key: number) =>
  scale.fine && key < 1 ? key : (scale.bounds[Math.max(0, key - 1)] ?? 0);

/** Coarser: a month of hourly rows per provider is read per chart, each row as many buckets as it has values. */
export const QUOTE_LATENCY_MS: HistogramScale = {
  bounds: [
    ...steps(0, 100, 5),
    ...steps(100, 1000, 25),
    ...steps(1000, 3000, 100),
    ...steps(3000, 10_000, 500),
    ...steps(10_000, 60_001, 5000),
  ],
};

/** Swap durations, from a Relay fill in seconds to a streaming swap over a day: 5 s wide at first, 30 min past two hours. */
export const ROUTE_SECONDS: HistogramScale = {
  bounds: [
    ...steps(0, 120, 5),
    ...steps(120, 600, 15),
    ...steps(600, 1800, 60),
    ...steps(1800, 7200, 300),
    ...steps(7200, 86_400, 1800),
    86_400,
    172_800,
  ],
};

/** Adds `more` into `into`. */
export function addCounts(into: Map<number, number>, more: HistogramCounts | null | undefined): Map<number, number> {
  for (const [bucket, n] of Object.entries(more ?? {})) {
    into.set(Number(bucket), (into.get(Number(bucket)) ?? 0) + Number(n));
  }
  return into;
}

/** Where a stored key's bucket ends: the next bound (a fine key's next step); the last, open bucket ends where it starts. */
function upperBound(scale: HistogramScale, key: number): number {
  const fine = key < 1 ? scale.fine?.find(({ below }) => key < below) : undefined;
  if (fine) return Math.min(fine.below, key + 1 / fine.perUnit);
  return scale.bounds[Math.max(1, key)] ?? lowerBound(scale, key);
}

/** Which point of its bucket a value is read as: where it starts, its middle, or where it ends. */
export type BucketReading = 'lower' | 'middle' | 'upper';

function readBucket(scale: HistogramScale, key: number, reading: BucketReading): number {
  if (reading === 'lower') return lowerBound(scale, key);
  if (reading === 'upper') return upperBound(scale, key);
  return (lowerBound(scale, key) + upperBound(scale, key)) / 2;
}

/**
 * The `p` percentile (0–1) the way `percentile_cont` interpolates, each value read as its bucket's lower
 * bound (exact for values on a bound), or its middle or upper bound: a figure promised as "within" (a p90
 * shown to a swapper) reads the upper bound, so at least that share of the counted values lie at or under it.
 */
export function percentile(
  scale: HistogramScale,
  counts: Map<number, number>,
  p: number,
  reading: BucketReading = 'lower',
): number | null {
  const buckets = [...counts]
    .filter(([, n]) => n > 0)
    .map(([key, n]) => [readBucket(scale, key, reading), n] as const)
    .sort(([a], [b]) => a - b);
  const total = buckets.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const position = p * (total - 1);
  const valueAt = (rank: number) => {
    let seen = 0;
    for (const [bound, n] of buckets) {
      seen += n;
      if (rank < seen) return bound;
    }
    return buckets.at(-1)?.[0] ?? 0;
  };
  const low = valueAt(Math.floor(position));
  const high = valueAt(Math.ceil(position));
  return low + (high - low) * (position - Math.floor(position));
}
