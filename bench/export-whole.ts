/**
 * `npx tsx bench/export-whole.ts [database url]`: a whole database's transactions exported through the built
 * web server, unfiltered, as support downloads them, read to the end by curl (a Node `fetch` reader slows
 * to ~1,000 rows/s past a million rows and would be what is measured). Reports X-Total-Count, the lines
 * received, the seconds to the headers and to the end, and the web process' RSS before and at most. The
 * database defaults to the 10M scale dataset that `BENCH_SCALE_KEEP=1 npm run bench:scale` keeps (#47: a
 * 10M-row export must work, memory flat).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchSettings, childEnv } from './config';
import { transactionsExportUrl, webProcess, withPeakRss } from './export';
import { startNext } from './procs';
import { Report } from './report';
import { scaleDatabaseUrl } from './scale-dataset';
import { sessionCookie } from './session';
import { startBench } from './setup';

const settings = benchSettings(process.env);
const databaseUrl = process.argv[2] ?? scaleDatabaseUrl(settings, 10_000_000);
const MB = 1024 * 1024;

/**
 * curl's body piped into `wc -l`; its headers to a file (curl crashes writing them to a stderr that is a
 * Node pipe) and the seconds to the first byte of the response to stderr.
 */
function download(url: string, cookie: string): Promise<{ lines: number; total: number; headersMs: number }> {
  const headersFile = join(mkdtempSync(join(tmpdir(), 'export-whole-')), 'headers');
  return new Promise((resolve, reject) => {
    const child = spawn(
      'sh',
      ['-c', `curl -sS -f -D "$HEADERS" -w '%{stderr}%{time_starttransfer}' -H "cookie: $COOKIE" "$URL" | wc -l`],
      { env: { ...process.env, COOKIE: cookie, URL: url, HEADERS: headersFile } },
    );
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      // `a+` creates the file if curl failed before writing it: no headers then, rather than ENOENT.
      const headers = readFileSync(headersFile, { encoding: 'utf8', flag: 'a+' });
      rmSync(dirname(headersFile), { recursive: true, force: true });
      const total = Number(/x-total-count: (\d+)/i.exec(headers)?.[1] ?? Number.NaN);
      const firstByte = Number(errors.trim());
      if (code !== 0 || Number.isNaN(total) || Number.isNaN(firstByte)) {
        reject(new Error(`export: ${errors.slice(0, 300)} ${headers.slice(0, 300)}`));
      } else resolve({ lines: Number(out.trim()), total, headersMs: firstByte * 1000 });
    });
  });
}

const bench = await startBench(settings, new Report());
const env = { ...bench.env, DATABASE_URL: databaseUrl };
const next = await startNext(childEnv(env), { lockWaitSeconds: settings.nextLockWaitSeconds });
try {
  const cookie = await sessionCookie(env, 'support');
  // A warm-up, as in the bench's section: the first request loads the route's chunks.
  await download(transactionsExportUrl(next.port, { query: 'nothing-matches' }), cookie);
  const started = performance.now();
  const {
    result: got,
    before,
    peak,
  } = await withPeakRss(webProcess(next.pid), () => download(transactionsExportUrl(next.port, {}), cookie), 250);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    [
      `export of ${new URL(databaseUrl).pathname.slice(1)}: X-Total-Count ${got.total}, ${got.lines} lines`,
      `(${got.lines === got.total + 1 ? 'the header and every row' : 'NOT every row'})`,
      `headers after ${(got.headersMs / 1000).toFixed(1)} s, end after ${seconds.toFixed(1)} s`,
      `(${Math.round(got.total / (seconds - got.headersMs / 1000))} rows/s once streaming);`,
      `web RSS ${Math.round(before / MB)} MB before, ${Math.round(peak / MB)} MB at most (+${((peak - before) / MB).toFixed(1)} MB)`,
    ].join(' '),
  );
  if (got.lines !== got.total + 1) process.exitCode = 1;
} finally {
  await next.stop();
  await bench.close();
}
