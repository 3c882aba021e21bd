/**
 * Exports (#47): a 1M-row transactions export through the web server (Next, signed in as support would be)
 * against `psql \copy (the same query) to stdout` in the same run: rows/s of each, their ratio (goal at
 * least 0.5), and how much the web process' resident memory grew while it streamed (goal at most 50 MB).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../server/config';
import { createAppContext } from '../server/context';
import { withLiterals } from '../server/exports/stream';
import { transactionExportQuery } from '../server/exports/transactions';
import { transactionSearchInput } from '../server/schemas/transactions';
import { childEnv } from './config';
import { insertSyntheticTransactions } from './fixtures';
import { median } from './load';
import { startNext } from './procs';
import { sessionCookie } from './session';
import type { Bench } from './setup';

const SECTION = 'export';
const ROWS = 1_000_000;
const CHUNK = 100_000;
/** psql and the web in turn, this many times each. */
const ROUNDS = 3;
/** Rows of their own: a year no other section writes, read through the created_at index. */
const YEAR = { from: '2019-01-01T00:00:00.000Z', to: '2019-12-31T23:59:59.999Z' };

async function fill(b: Bench, rows: number) {
  await b.sql.begin(async (tx) => {
    await tx`set local synchronous_commit = off`;
    await tx`set local session_replication_role = replica`;
    for (let first = 1; first <= rows; first += CHUNK) {
      await insertSyntheticTransactions(tx, {
        tag: 'exp',
        first,
        count: Math.min(CHUNK, rows - first + 1),
        status: 'SUCCESS',
        assets: b.assets,
        wallet: `'0x' || lpad(to_hex(i % 65521), 40, '0')`,
        hash: `md5(i::text) || md5((i + 1)::text)`,
        createdAt: `timestamptz '${YEAR.from}' + i * interval '20 seconds'`,
      });
    }
  });
  await b.sql`vacuum (analyze) transactions`;
}

/** The web process: the node process in the server's process group (found once: a scan of /proc is not free). */
export function webProcess(group: number): string | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === group && stat.includes('(node)')) return pid;
    } catch {}
  }
  return undefined;
}

/** A process' resident set, in bytes (0 once it is gone). */
export function rssOf(pid: string | undefined): number {
  try {
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return rss ? Number(rss) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The transactions export of `search` on the web server at `port`, as the dashboard's button asks for it. */
export const transactionsExportUrl = (port: number, search: unknown) =>
  `http://127.0.0.1:${port}/api/exports/transactions?input=${encodeURIComponent(JSON.stringify(search))}`;

/** `read` run while a process' resident set is sampled every `everyMs`: its result, the RSS before and the most seen. */
export async function withPeakRss<T>(pid: string | undefined, read: () => Promise<T>, everyMs = 100) {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, everyMs);
  try {
    const result = await read();
    return { result, before, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Line feeds in a chunk, found natively: both readers count the same way, and neither is the bottleneck (a
 * byte-by-byte loop over the 350 MB body held the web export to ~25k rows/s while the server sat idle).
 */
function lineFeeds(chunk: Uint8Array) {
  let count = 0;
  for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) count++;
  return count;
}

/** Streams the body to its end, counting lines. */
async function drain(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return lines;
    lines += lineFeeds(value);
  }
}

function psqlCopy(url: string, query: string): Promise<{ lines: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', [
      url,
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      `\\copy (${query}) to stdout with csv header`,
    ]);
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      lines += lineFeeds(chunk);
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve({ lines, ms: performance.now() - started })
        : reject(new Error(`psql: ${errors.slice(0, 300)}`)),
    );
  });
}

export async function exportSection(b: Bench): Promise<void> {
  const rows = b.count(ROWS, 10_000);
  const filled = performance.now();
  await fill(b, rows);
  b.report.note(`export: ${rows} rows loaded in ${Math.round((performance.now() - filled) / 1000)} s`);

  const app = createAppContext(parseConfig(b.env));
  const input = transactionSearchInput.parse({ from: YEAR.from, to: YEAR.to });
  const query = await transactionExportQuery(app, input);
  // The statement the web export's COPY runs, its values written in the same way.
  const conn = await app.sql.reserve();
  const copyStatement = await withLiterals(conn, query.rows).finally(() => conn.release());
  await app.close();

  if (b.settings.skipNext) {
    b.report.note('export: not measured (BENCH_SKIP_NEXT=1)');
    return;
  }
  const cookie = await sessionCookie(b.env, 'support');
  const next = await startNext(childEnv(b.env), { lockWaitSeconds: b.settings.nextLockWaitSeconds });
  try {
    const exportUrl = (search: unknown) => transactionsExportUrl(next.port, search);
    // A warm-up: the first request loads the route's chunks.
    await drain((await fetch(exportUrl({ query: 'nothing-matches' }), { headers: { cookie } })).body as ReadableStream);
    const web = webProcess(next.pid);
    const webExport = async () => {
      const started = performance.now();
      const { result, before, peak } = await withPeakRss(web, async () => {
        const res = await fetch(exportUrl(YEAR), { headers: { cookie } });
        const total = Number(res.headers.get('x-total-count'));
        return { total, lines: await drain(res.body as ReadableStream<Uint8Array>) };
      });
      return { ...result, ms: performance.now() - started, before, peak };
    };

    // Rounds in turn, the order swapped each round, so what the machine does meanwhile (and whose pages are
    // cached) falls on both readers alike; the ratio is the median of each round's own.
    const rounds: { psqlRate: number; webRate: number; before: number; peak: number }[] = [];
    const growth = (r: { before: number; peak: number }) => r.peak - r.before;
    for (let round = 0; round < ROUNDS; round++) {
      const readCopy = () => psqlCopy(b.settings.databaseUrl, copyStatement);
      let copy: Awaited<ReturnType<typeof readCopy>>;
      let served: Awaited<ReturnType<typeof webExport>>;
      if (round % 2 === 0) {
        copy = await readCopy();
        served = await webExport();
      } else {
        served = await webExport();
        copy = await readCopy();
      }
      if (served.total !== rows || served.lines !== rows + 1 || copy.lines !== rows + 1) {
        b.report.violation(
          `export: ${rows} rows, X-Total-Count ${served.total}, web lines ${served.lines}, psql lines ${copy.lines}`,
        );
      }
      const measured = { psqlRate: rows / (copy.ms / 1000), webRate: rows / (served.ms / 1000) };
      rounds.push({ ...measured, before: served.before, peak: served.peak });
      console.log(
        `    export round ${round + 1}/${ROUNDS}: psql ${Math.round(measured.psqlRate)} rows/s, web ${Math.round(measured.webRate)} rows/s, RSS +${(growth(served) / 1048576).toFixed(1)} MB`,
      );
    }
    const psqlRate = median(rounds.map((r) => r.psqlRate));
    const webRate = median(rounds.map((r) => r.webRate));
    const worst = rounds.reduce((most, r) => (growth(r) > growth(most) ? r : most));
    b.report.details.exportRounds = rounds;
    b.report.add({ section: SECTION, name: `psql \\copy ${rows} rows`, value: psqlRate, unit: 'rows/s' });
    b.report.add({
      section: SECTION,
      name: `web export ${rows} rows`,
      value: webRate,
      unit: 'rows/s',
      baseline: psqlRate,
      baselineName: 'psql \\copy',
    });
    b.report.add({
      section: SECTION,
      name: `web export ÷ psql \\copy (median of ${ROUNDS} rounds' ratios)`,
      value: median(rounds.map((r) => r.webRate / r.psqlRate)),
      unit: '×',
      target: 0.5,
      targetAtLeast: true,
      note: `per round: ${rounds.map((r) => (r.webRate / r.psqlRate).toFixed(3)).join(', ')}`,
    });
    b.report.add({
      section: SECTION,
      name: 'web process RSS growth during an export (most of any round)',
      value: growth(worst) / 1024 / 1024,
      unit: 'MB',
      target: 50,
      note: `RSS ${Math.round(worst.before / 1048576)} MB before, ${Math.round(worst.peak / 1048576)} MB at most`,
    });
  } finally {
    await next.stop();
  }
}
