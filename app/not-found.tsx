import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { Brand } from '@/app/_kit/Brand';
import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState } from '@/app/_kit/states';

export const metadata: Metadata = { title: 'Page not found · Switchyard' };

/**
 * Any address no page answers (the dashboard has its own, inside its frame). Rendered per request, not
 * prerendered: a prerendered page carries no CSP nonce, so the browser blocks its scripts (and logs it).
 */
export default async function NotFound() {
  await connection();
  return (
    <main id="not-found-main" className={layout.noticePage}>
      <Brand href="/" />
      <Panel>
        <EmptyState title="There is no page at this address" titleAs="h1">
          Check the address for a typing mistake. A swap's own page is the link you were given after executing it (it
          starts with /tx/). To start a swap, go to the <Link href="/">swap page</Link>; integrators will find the API
          in the <Link href="/docs">documentation</Link>.
        </EmptyState>
      </Panel>
    </main>
  );
}
