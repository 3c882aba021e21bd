const usdFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const compactUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});
const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
});
const bucketHour = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
const bucketDay = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });

export const formatUsd = (value: number | null | undefined) => (value == null ? '—' : usdFormat.format(value));
export const formatUsdCompact = (value: number) => compactUsd.format(value);
export const formatPercent = (ratio: number | null | undefined, digits = 1) =>
  ratio == null ? '—' : `${(ratio * 100).toFixed(digits)}%`;
export const formatCount = (value: number) => value.toLocaleString('en-US');
export const formatDateTime = (value: Date | string | null | undefined) =>
  value == null ? '—' : `${dateTime.format(new Date(value))} UTC`;
export const formatBucket = (value: Date | string, bucket: 'hour' | 'day') =>
  (bucket === 'hour' ? bucketHour : bucketDay).format(new Date(value));

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export function formatRelative(value: Date | string | null | undefined, now = Date.now()): string {
  if (value == null) return '—';
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

/** `0x1234…cdef`: enough of a hash to recognise it, the full value stays in the title and the copy button. */
export function shortHash(value: string, keep = 8): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-keep + 2)}`;
}
