'use client';

import { RANGES, type Range } from '@/server/dashboard/schemas';
import styles from './dash.module.css';

const LABELS: Record<Range, string> = { '24h': '24 hours', '7d': '7 days', '30d': '30 days' };

export function RangePicker({ value, onChange }: { value: Range; onChange: (range: Range) => void }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of toggle buttons, not a form field set
    <div className={styles.segmented} role="group" aria-label="Time range">
      {RANGES.map((range) => (
        <button
          key={range}
          type="button"
          className={styles.segment}
          aria-pressed={value === range}
          onClick={() => onChange(range)}
        >
          {LABELS[range]}
        </button>
      ))}
    </div>
  );
}
