import Link from 'next/link';
import styles from '../_components/dash.module.css';
import { EmptyState } from '../_components/states';

export default function NotFound() {
  return (
    <div className={styles.panel}>
      <EmptyState title="Page not found">
        <Link href="/dashboard">Back to the dashboard</Link>
      </EmptyState>
    </div>
  );
}
