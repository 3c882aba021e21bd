'use client';

import { useEffect, useState } from 'react';
import { formatCountdown } from '@/app/_kit/format';
import type { ApiError } from '../_lib/api';
import { friendlyMessage } from '../_lib/friendly';

/** A failed request in words for people; when the API said how long to wait, a countdown to then. */
export function ErrorText({ error }: { error: ApiError }) {
  const wait = error.retryAfterSeconds;
  const [until] = useState(() => (wait === undefined ? null : Date.now() + wait * 1000));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 500);
    return () => clearInterval(timer);
  }, [until]);
  if (until === null) return <>{friendlyMessage(error)}</>;
  const left = until - now;
  return (
    <>
      {friendlyMessage(error)}{' '}
      <span data-testid="retry-countdown">
        {left > 0 ? `You can try again in ${formatCountdown(left)}.` : 'You can try again now.'}
      </span>
    </>
  );
}
