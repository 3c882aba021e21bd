'use client';

import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { ErrorState } from '@/app/_kit/states';

/** A public page that failed while rendering: what happened and what to do, never the framework's text. */
export default function PublicError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" className={layout.noticePage}>
      <Panel>
        <ErrorState
          title="This page could not be shown."
          message="Nothing about your swap was changed. The error was logged; try again in a moment. A swap keeps being tracked while this page is away, and its link still works."
          onRetry={reset}
        />
      </Panel>
    </main>
  );
}
