'use client';

import './globals.css';
import { Brand } from '@/app/_kit/Brand';
import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { ErrorState } from '@/app/_kit/states';

/** Last resort, when even the root layout failed: it replaces the whole document, so it brings its own. */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main className={layout.noticePage}>
          <Brand href="/" />
          <Panel>
            <ErrorState
              title="Switchyard could not show this page."
              message="Nothing about your swap was changed. The error was logged; try again in a moment, or reload the page."
              onRetry={reset}
            />
          </Panel>
        </main>
      </body>
    </html>
  );
}
