'use client';

import { Panel } from '@/app/_kit/Panel';
import { ErrorState } from '@/app/_kit/states';

export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Panel>
      <ErrorState
        message="This page could not be loaded. The error was logged; try again in a moment."
        onRetry={reset}
      />
    </Panel>
  );
}
