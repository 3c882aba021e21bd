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
  | { phase: 'failed'; rows: number; total: number | null; message: string }
  | { phase: 'cancelled'; rows: number; total: number | null };

const filenameOf = (response: Response) =>
  /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';

async function refusal(response: Response): Promise<string> {
  const body = await response.json().catch(() => null);
  return body?.error?.message ?? `The server answered ${response.status}`;
}

class ExportProblem extends Error {}

const ofTotal = (rows: number, total: number | null) =>
  total === null ? `${formatCount(rows)} rows` : `${formatCount(rows)} of ${formatCount(total)} rows`;

/** Hands the bytes to the browser as a download. */
function save(parts: BlobPart[], filename: string) {
  const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads a CSV export, counting its rows as they arrive against the total the server sends first
 * (`X-Total-Count`). The download is saved only when every row came.
 */
export function useCsvExport() {
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  async function start(href: string) {
    running.current?.abort();
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
      const parts: BlobPart[] = [];
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        countRecords(value, counted);
        setState({ phase: 'running', rows: rows(), total });
      }
      if (total !== null && rows() !== total) {
        throw new ExportProblem(`the download ended after ${ofTotal(rows(), total)}`);
      }
      const filename = filenameOf(response);
      save(parts, filename);
      setState({ phase: 'done', rows: rows(), filename });
    } catch (error) {
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
