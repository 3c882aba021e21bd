'use client';

import { useEffect, useState } from 'react';

/** Longest timer the browser keeps (about 24.8 days); a later deadline is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Whether `deadline` has passed, turning true when it does. False on the server and on the first
 * render (both render alike, so hydration matches), then the browser's clock decides.
 */
export function usePassed(deadline: string | number | Date | null | undefined): boolean {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    if (deadline == null) return setPassed(false);
    const at = new Date(deadline).getTime();
    if (!Number.isFinite(at)) return setPassed(false);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = at - Date.now();
      setPassed(left <= 0);
      if (left > 0) timer = setTimeout(check, Math.min(left + 50, MAX_TIMER_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [deadline]);
  return passed;
}

/** False on the server and in the first (hydrating) render, true once the page's script runs. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
