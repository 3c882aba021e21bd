'use client';

import styles from '../_components/dash.module.css';
import { ErrorState } from '../_components/states';

export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className={styles.panel}>
      <ErrorState
        message="This page could not be loaded. The error was logged; try again in a moment."
        onRetry={reset}
      />
    </div>
  );
}
