import { formatUnits } from 'viem';

/** Every number, amount, time and id formatter of the UI. A missing value is shown as `—` unless said otherwise. */

type Numeric = number | string | null | undefined;

const DASH = '—';
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const usdCompact = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});
const localDateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const localTime = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const localMinute = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
// With the day: a 24 h range has 25 hourly buckets, and "14:00" alone would read the same at both ends.
const bucketHour = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});
const bucketDay = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });

const finite = (value: Numeric): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/** `$1,234.56`; `missing` when the value is absent or not a number. */
export function formatUsd(value: Numeric, missing = DASH): string {
  const n = finite(value);
  return n === null ? missing : usd.format(n);
}
export const formatUsdCompact = (value: number) => usdCompact.format(value);
export const formatPercent = (ratio: number | null | undefined, digits = 1) =>
  ratio == null ? DASH : `${(ratio * 100).toFixed(digits)}%`;
export const formatCount = (value: number) => value.toLocaleString('en-US');
/** `1 user`, `3 users`; `plural` where adding an s is wrong. */
export const formatCountOf = (count: number, singular: string, plural = `${singular}s`) =>
  `${formatCount(count)} ${count === 1 ? singular : plural}`;
export const formatBps = (bps: number) => `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

const AMOUNT_FRACTION_DIGITS = 8;
const groupThousands = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The one display rule for token amounts, in every view: at most 8 decimals, cut (never rounded up,
 * so a minimum is never overstated), trailing zeros dropped, thousands grouped: `7.405047458996875`
 * → `7.40504745`, `2500` → `2,500`. A value that is not a plain decimal is shown as it came.
 */
export function formatAmount(amount: string | null | undefined, symbol?: string | null): string {
  if (amount == null || amount === '') return DASH;
  const tail = symbol ? ` ${symbol}` : '';
  if (!/^\d+(\.\d+)?$/.test(amount)) return `${amount}${tail}`;
  const [whole = '0', fraction = ''] = amount.split('.');
  const kept = fraction.slice(0, AMOUNT_FRACTION_DIGITS).replace(/0+$/, '');
  const grouped = groupThousands(whole.replace(/^0+(?=\d)/, ''));
  return `${kept ? `${grouped}.${kept}` : grouped}${tail}`;
}

/**
 * An amount given in an asset's smallest units, exact, with its symbol: `2,500.000001 USDC`. Only for
 * what a person must send or approve to the last unit; everything else shows `formatAmount`.
 */
/**
 * An amount someone must send exactly, every digit kept, thousands grouped as every other amount is:
 * `2,500 USDC` (beside an approval of `2,500 USDC`), `0.25 BTC`. Not a decimal number: as given.
 */
export function formatExactAmount(amount: string, symbol: string): string {
  const match = /^(\d+)(\.\d+)?$/.exec(amount);
  return match ? `${groupThousands(match[1] as string)}${match[2] ?? ''} ${symbol}` : `${amount} ${symbol}`;
}

export function formatTokenAmount(
  baseUnits: string | null | undefined,
  asset: { decimals: number; symbol: string } | undefined,
) {
  if (!baseUnits || !/^\d+$/.test(baseUnits)) return DASH;
  if (!asset) return `${formatCount(Number(baseUnits))} (smallest units)`;
  const [whole = '0', fraction = ''] = formatUnits(BigInt(baseUnits), asset.decimals).split('.');
  return `${fraction ? `${groupThousands(whole)}.${fraction}` : groupThousands(whole)} ${asset.symbol}`;
}

/**
 * Operator time, the dashboard's one date format: `2026-01-31 14:05:09 UTC`, the same digits the date
 * filters take (leave `zone` empty where a column header already says UTC).
 */
export function formatDateTime(value: Date | string | null | undefined, zone = ' UTC'): string {
  if (value == null) return DASH;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? DASH : `${date.toISOString().slice(0, 19).replace('T', ' ')}${zone}`;
}

/** A swapper's time: their own time zone; a value that is not a date is shown as it came. */
export function formatLocalDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : localDateTime.format(date);
}
export const formatLocalTime = (value: number | Date, seconds = true) =>
  (seconds ? localTime : localMinute).format(value);

export const formatBucket = (value: Date | string, bucket: 'hour' | 'day') =>
  (bucket === 'hour' ? bucketHour : bucketDay).format(new Date(value));

/** A measured duration: `350 ms`, `4.2 s`, `3 min 12 s`, `1.5 h`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null) return DASH;
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/**
 * A time read from the lock rollups' histogram: the lower edge of its bucket, in milliseconds under a
 * second (`42 ms`). 0 is the edge of the first bucket, or of a whole second rolled up before the
 * milliseconds were kept: somewhere under a second, never "0 ms".
 */
export function formatSecondsBucket(seconds: number | null | undefined): string {
  if (seconds == null) return DASH;
  if (seconds <= 0) return 'under 1 s';
  return formatDuration(seconds);
}

/** An estimate, rounded the way people say it: `~40 s`, `~12 min`, `~2 h 5 min`. */
export function formatEstimate(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return DASH;
  if (seconds < 60) return `~${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `~${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `~${hours} h ${rest} min` : `~${hours} h`;
}

/** `m:ss` for a countdown. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

export function formatRelative(value: Date | string | null | undefined, now = Date.now()): string {
  if (value == null) return DASH;
  const diff = new Date(value).getTime() - now;
  const abs = Math.abs(diff);
  const unit =
    abs < 60_000
      ? `${Math.round(abs / 1000)} s`
      : abs < 3_600_000
        ? `${Math.round(abs / 60_000)} min`
        : abs < 86_400_000
          ? `${Math.round(abs / 3_600_000)} h`
          : `${Math.round(abs / 86_400_000)} d`;
  return diff >= 0 ? `in ${unit}` : `${unit} ago`;
}

/** `0x1234…cdef`: enough of a long value to recognise it. */
export function truncateMiddle(value: string, head = 10, tail = 8): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

const unitOf = (seconds: number) => (seconds < 60 ? 's' : seconds < 3600 ? 'min' : 'h');
const inUnit = (seconds: number, unit: 's' | 'min' | 'h') =>
  unit === 's'
    ? Math.round(seconds)
    : unit === 'min'
      ? Math.round(seconds / 60)
      : Math.round((seconds / 3600) * 10) / 10;

/** A duration in one unit, as the swapper reads it and a badge in a table column fits: `45 s`, `8 min`, `2.5 h`. */
export const formatUsualDuration = (seconds: number) => `${inUnit(seconds, unitOf(seconds))} ${unitOf(seconds)}`;

/** `3–8 min`, `45 s–2 min`, `about 5 min`: a span of two durations, in the larger one's unit where they share it. */
export function formatTimeSpan(fromSeconds: number, toSeconds: number): string {
  const high = unitOf(toSeconds);
  const low = unitOf(fromSeconds);
  const to = inUnit(toSeconds, high);
  const from = inUnit(fromSeconds, low);
  if (low === high) return from === to ? `about ${to} ${high}` : `${from}–${to} ${high}`;
  return `${from} ${low}–${to} ${high}`;
}
