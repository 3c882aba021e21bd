'use client';

import { useEffect, useState } from 'react';
import { formatDateTime, formatLocalDateTime, formatLocalTime } from './format';

/**
 * A time in the reader's own zone. The server does not know that zone, so the server and the
 * browser's first render show UTC (the same text on both, as hydration needs) and the browser then
 * switches to local time.
 */
export function LocalTime({
  value,
  withDate = false,
  seconds = true,
}: {
  value: string | number;
  withDate?: boolean;
  /** Without them, a time of day to the minute: `14:32`. */
  seconds?: boolean;
}) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{String(value)}</>;
  const iso = date.toISOString();
  const utc = formatDateTime(date);
  const local = withDate ? formatLocalDateTime(iso) : formatLocalTime(date, seconds);
  const utcTime = seconds ? utc.slice(11) : `${utc.slice(11, 16)} UTC`;
  return <time dateTime={iso}>{hydrated ? local : withDate ? utc : utcTime}</time>;
}
