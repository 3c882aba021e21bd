'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { formatCount } from '@/app/_kit/format';
import { Notice } from '@/app/_kit/Notice';
import styles from './csv-export.module.css';
import { countRecords } from './csv-records';

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; rows: number; total: number | null }
  | { phase: 'done'; rows: number; filename: string }
  | { phase: 'handed' }
  | { phase: 'failed'; rows: number; total: number | null; message: string }
  | { phase: 'cancelled'; rows: number; total: number | null };

/** The File System Access API's save picker, where the browser has it (Chromium); absent elsewhere. */
type SavePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<FileSystemFileHandle & { remove?: () => Promise<void> }>;

async function refusal(response: Response): Promise<string> {
  const body = await response.json().catch(() => null);
  return body?.error?.message ?? `The server answered ${response.status}`;
}

class ExportProblem extends Error {}

const ofTotal = (rows: number, total: number | null) =>
  total === null ? `${formatCount(rows)} rows` : `${formatCount(rows)} of ${formatCount(total)} rows`;

/** `/api/exports/audit?…` → `audit-20261129T100511Z.csv`, as the server names it; the reader may change it. */
export function suggestedFilename(href: string, now = new Date()) {
  const kind = new URL(href, 'http://x').pathname.split('/').filter(Boolean).at(-1) ?? 'export';
  return `${kind}-${now.toISOString().slice(0, 19).replaceAll(/[-:]/g, '')}Z.csv`;
}

/** The browser's own download of the export URL (same origin, so the session cookie goes with it): nothing held here. */
function nativeDownload(href: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = '';
  link.click();
}

/**
 * Downloads a CSV export without holding it in the tab. Where the browser has `showSaveFilePicker`,
 * the response streams into the file the reader picks, its rows counted against the total the server
 * sends first (`X-Total-Count`); a short or broken stream aborts the write, so the file keeps nothing.
 * Elsewhere the browser downloads the URL itself and shows its own progress.
 */
export function useCsvExport() {
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  async function start(href: string) {
    running.current?.abort();
    const picker = (window as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
    if (!picker) {
      nativeDownload(href);
      setState({ phase: 'handed' });
      return;
    }
    let file: Awaited<ReturnType<SavePicker>>;
    try {
      // First, while the click still counts as the reader's gesture.
      file = await picker({
        suggestedName: suggestedFilename(href),
        types: [{ description: 'CSV', accept: { 'text/csv': ['.csv'] } }],
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return; // the reader closed the picker
      nativeDownload(href);
      setState({ phase: 'handed' });
      return;
    }
    const controller = new AbortController();
    running.current = controller;
    const counted = { inQuotes: false, records: 0 };
    const rows = () => Math.max(0, counted.records - 1);
    let total: number | null = null;
    setState({ phase: 'running', rows: 0, total });
    try {
      const response = await fetch(href, { signal: controller.signal, cache: 'no-store' });
      if (!response.ok || !response.body) throw new ExportProblem(await refusal(response));
      const header = response.headers.get('x-total-count');
      total = header === null ? null : Number(header);
      const counter = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          countRecords(chunk, counted);
          setState({ phase: 'running', rows: rows(), total });
          out.enqueue(chunk);
        },
        flush() {
          if (total !== null && rows() !== total) {
            throw new ExportProblem(`the download ended after ${ofTotal(rows(), total)}`);
          }
        },
      });
      // An error or a cancel aborts the writable: what was written is discarded, not kept half.
      await response.body.pipeThrough(counter).pipeTo(await file.createWritable(), { signal: controller.signal });
      setState({ phase: 'done', rows: rows(), filename: file.name });
    } catch (error) {
      // The picker made the file; it keeps nothing of a failed export (where the browser can remove it).
      await file.remove?.().catch(() => {});
      if (controller.signal.aborted) setState({ phase: 'cancelled', rows: rows(), total });
      else {
        // A refusal or a short count says what happened; a stream that broke says how far it got.
        const message =
          error instanceof ExportProblem ? error.message : `the download broke off after ${ofTotal(rows(), total)}`;
        setState({ phase: 'failed', rows: rows(), total, message });
      }
    } finally {
      if (running.current === controller) running.current = null;
    }
  }

  return { state, start, cancel: () => running.current?.abort() };
}

export type CsvExportControl = ReturnType<typeof useCsvExport>;

export function ExportCsvButton({
  control,
  href,
  size = 'small',
  label = 'Export CSV',
}: {
  control: CsvExportControl;
  href: string;
  size?: 'small' | 'medium';
  label?: string;
}) {
  const busy = control.state.phase === 'running';
  return (
    <Button size={size} busy={busy} onClick={() => control.start(href)}>
      {busy ? 'Exporting…' : label}
    </Button>
  );
}

/** Progress while the export runs, then what became of it. */
export function CsvExportStatus({ control }: { control: CsvExportControl }) {
  const { state } = control;
  if (state.phase === 'idle') return null;
  if (state.phase === 'running') {
    return (
      <div className={styles.status} role="status">
        <progress
          className={styles.progress}
          aria-label="Export progress"
          value={state.rows}
          max={state.total || undefined}
        />
        <p className={styles.line}>
          <span>Exporting: {ofTotal(state.rows, state.total)}</span>
          <Button size="small" onClick={control.cancel}>
            Cancel export
          </Button>
        </p>
      </div>
    );
  }
  if (state.phase === 'done') {
    return (
      <Notice tone="success" role="status" className={styles.status} title="Export finished.">
        {formatCount(state.rows)} {state.rows === 1 ? 'row' : 'rows'} saved as {state.filename}.
      </Notice>
    );
  }
  if (state.phase === 'handed') {
    return (
      <p className={`${styles.status} ${styles.handed}`} role="status">
        <strong>Download started.</strong> Your browser saves it as it arrives and shows its progress, and any failure,
        in its downloads.
      </p>
    );
  }
  if (state.phase === 'cancelled') {
    return (
      <Notice tone="warning" role="status" className={styles.status} title="Export cancelled.">
        Stopped at {ofTotal(state.rows, state.total)}; nothing was saved.
      </Notice>
    );
  }
  return (
    <Notice tone="error" role="alert" className={styles.status} title="Export failed.">
      {state.message[0]?.toUpperCase()}
      {state.message.slice(1)}. Nothing was saved; try again.
    </Notice>
  );
}
