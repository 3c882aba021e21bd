import Link from 'next/link';
import { Panel } from '@/app/_kit/Panel';
import { EmptyState } from '@/app/_kit/states';

export default function NotFound() {
  return (
    <Panel>
      <EmptyState title="Page not found">
        <Link href="/dashboard">Back to the dashboard</Link>
      </EmptyState>
    </Panel>
  );
}
