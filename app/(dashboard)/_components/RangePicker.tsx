'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import layout from '@/app/_kit/layout.module.css';
import { RANGES, type Range } from '@/server/schemas/ranges';
import styles from './range-picker.module.css';
import { QueryState } from './states';

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

/** A page of figures over a time range: the range picker, then what the range's query shows. */
export function RangedView<T, E>({
  range,
  onRangeChange,
  query,
  loading,
  children,
}: {
  range: Range;
  onRangeChange: (range: Range) => void;
  query: UseQueryResult<T, E>;
  loading: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <div className={layout.stack}>
      <div>
        <RangePicker value={range} onChange={onRangeChange} />
      </div>
      <QueryState query={query} loading={loading}>
        {children}
      </QueryState>
    </div>
  );
}
