/** The bench's one output: a table on stdout and the same rows in bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Row {
  section: string;
  name: string;
  value: number;
  unit: string;
  /** The same-run baseline this row is compared with, and what it is. */
  baseline?: number;
  baselineName?: string;
  /** value ÷ baseline */
  ratio?: number;
  note?: string;
  /** The bound this figure must stay within (at most, or at least with `targetAtLeast`), and whether it did. */
  target?: number;
  targetAtLeast?: boolean;
  met?: boolean;
  /** A hot-path figure: its ratio must reach `target` in a full run, and half of it in `npm run bench:gate`. */
  gate?: GateTarget;
}

export interface GateTarget {
  /** Names the figure for the gate, whatever the row's name says about the run's sizes. */
  key: GateKey;
  /** The ratio a full run must reach. */
  target: number;
}

/** Every hot-path ratio the gate judges; a gate run without one of them fails. */
export const GATE_KEYS = [
  'lean-status',
  'next-status',
  'polls',
  'polls-2-workers',
  'execute',
  'limiter',
  'history-deep-page',
] as const;
export type GateKey = (typeof GATE_KEYS)[number];

/** The gate fails a figure below this share of its target: a regression of that size is no machine's noise. */
export const GATE_SHARE = 0.5;

const round = (v: number) => (Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 100) / 100);

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];
  readonly violations: string[] = [];
  readonly failures: { section: string; error: string }[] = [];
  readonly details: Record<string, unknown> = {};

  add(row: Omit<Row, 'ratio' | 'met'> & { ratio?: number }): void {
    const ratio =
      row.ratio ?? (row.baseline !== undefined && row.baseline !== 0 ? row.value / row.baseline : undefined);
    const full: Row = {
      ...row,
      value: round(row.value),
      ratio: ratio === undefined ? undefined : round(ratio * 1000) / 1000,
    };
    if (row.target !== undefined) full.met = row.targetAtLeast ? row.value >= row.target : row.value <= row.target;
    if (row.gate) full.met = ratio !== undefined && ratio >= row.gate.target;
    if (row.baseline !== undefined) full.baseline = round(row.baseline);
    this.rows.push(full);
    console.log(`  ${format(full).join('  ')}`);
  }

  note(text: string): void {
    this.notes.push(text);
    console.log(`  note: ${text}`);
  }

  violation(text: string): void {
    this.violations.push(text);
    console.log(`  VIOLATION: ${text}`);
  }

  failed(section: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.failures.push({ section, error: message.slice(0, 2000) });
    console.log(`  SECTION FAILED (${section}): ${message.slice(0, 2000)}`);
  }

  print(): void {
    const header = ['name', 'value', 'unit', 'baseline', 'ratio', 'target'];
    const lines = [header, ...this.rows.map(format)];
    const widths = header.map((_, i) => Math.max(...lines.map((l) => (l[i] as string).length)));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => (i === 1 || i === 4 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
        .join('  ');
    console.log('');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of this.rows) console.log(line(format(row)));
    for (const f of this.failures) console.log(`FAILED ${f.section}: ${f.error}`);
    for (const v of this.violations) console.log(`VIOLATION ${v}`);
  }

  /** What the gate refuses: a hot-path ratio missing, or under `GATE_SHARE` of its target. */
  gateFailures(): string[] {
    const out: string[] = [];
    for (const key of GATE_KEYS) {
      const row = this.rows.find((r) => r.gate?.key === key);
      if (!row?.gate) out.push(`${key}: not measured`);
      else if (row.ratio === undefined || row.ratio < row.gate.target * GATE_SHARE) {
        out.push(`${key}: ratio ${row.ratio} < ${GATE_SHARE} × target ${row.gate.target} (${row.name})`);
      }
    }
    return out;
  }

  write(path: string, meta: Record<string, unknown>): void {
    mkdirSync(dirname(path), { recursive: true });
    const body = {
      ...meta,
      rows: this.rows,
      notes: this.notes,
      violations: this.violations,
      failures: this.failures,
      details: this.details,
    };
    writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`);
  }
}

function format(row: Row): string[] {
  const baseline =
    row.baseline === undefined ? '' : `${row.baseline}${row.baselineName ? ` (${row.baselineName})` : ''}`;
  const ratio = row.ratio === undefined ? '' : row.ratio.toFixed(3);
  return [row.name, String(row.value), row.unit, baseline, ratio, targetCell(row)];
}

function targetCell(row: Row): string {
  const verdict = row.met ? 'met' : 'MISSED';
  if (row.gate) return `ratio ≥ ${row.gate.target} ${verdict}`;
  if (row.target === undefined) return '';
  return `${row.targetAtLeast ? '≥' : '≤'} ${row.target} ${verdict}`;
}
