'use client';

import { useState } from 'react';
import { Button } from '@/app/_kit/Button';
import forms from '../dashboard/forms.module.css';
import { type KeysetPages, keysetPages } from './keyset-pages';

/**
 * Pages read by keyset, newest first: the cursor of each page shown, to go back. `cursor` is the one
 * to ask with; `reset` when the filters change.
 */
export function useKeysetPages() {
  const [shown, setShown] = useState<KeysetPages>(keysetPages.first);
  return {
    cursor: keysetPages.cursor(shown),
    /** The 1-based page shown. */
    page: shown.length + 1,
    hasNewer: shown.length > 0,
    reset: () => setShown(keysetPages.first),
    older: (nextCursor: string) => setShown(keysetPages.older(shown, nextCursor)),
    newer: () => setShown(keysetPages.newer(shown)),
  };
}
export type KeysetPager = ReturnType<typeof useKeysetPages>;

/** Whether there is more than one page to step between: a list that fits one page shows no pager. */
export const isPaged = (pager: KeysetPager, nextCursor: string | null | undefined) =>
  pager.hasNewer || Boolean(nextCursor);

/** "Newer …" and "Older …" buttons for a keyset-paged list; nothing when it all fits one page. */
export function KeysetPagerButtons({
  pager,
  nextCursor,
  noun,
}: {
  pager: KeysetPager;
  nextCursor: string | null | undefined;
  /** What the list holds, plural: "events", "codes". */
  noun: string;
}) {
  if (!isPaged(pager, nextCursor)) return null;
  return (
    <div className={forms.row}>
      <Button type="button" disabled={!pager.hasNewer} onClick={pager.newer}>
        Newer {noun}
      </Button>
      <Button type="button" disabled={!nextCursor} onClick={() => nextCursor && pager.older(nextCursor)}>
        Older {noun}
      </Button>
    </div>
  );
}
