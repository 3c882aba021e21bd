'use client';

import { useEffect, useState } from 'react';
import { formatDateTime, formatRelative } from './format';

/**
 * "in 3 min" / "5 s ago". The server and the browser's first render show the UTC time instead, so
 * both render the same text (a clock read on each side would differ and break hydration).
 */
export function RelativeTime({ value }: { value: Date | string | null }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (value == null) return <>{formatDateTime(value)}</>;
  const absolute = formatDateTime(value);
  return (
    <time dateTime={new Date(value).toISOString()} title={absolute}>
      {now === null ? absolute : formatRelative(value, now)}
    </time>
  );
}
