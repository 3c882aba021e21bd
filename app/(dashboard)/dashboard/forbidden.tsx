import Link from 'next/link';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState } from '@/app/_kit/states';

export default function Forbidden() {
  return (
    <Panel>
      <EmptyState title="You don't have access to this page">
        Your role does not include it. Ask an admin if you think it should.{' '}
        <Link href="/dashboard">Back to the dashboard</Link>
      </EmptyState>
    </Panel>
  );
}
