import Link from 'next/link';
import { Brand } from '@/app/_kit/Brand';
import layout from '@/app/_kit/layout.module.css';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState } from '@/app/_kit/states';

export default function Forbidden() {
  return (
    <main id="forbidden-main" className={layout.noticePage}>
      <Brand href="/dashboard" sub="Dashboard" />
      <Panel>
        <EmptyState title="You don't have access to this page" titleAs="h1">
          Your role does not include it. Ask an admin if you think it should.{' '}
          <Link href="/dashboard">Back to the dashboard</Link>
        </EmptyState>
      </Panel>
    </main>
  );
}
