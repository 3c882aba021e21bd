import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { answerChanges } from '../server/transactions/answer-changes';
import { startWorkerRuntime, type WorkerRuntime } from '../workers/runtime';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { cloneTemplate, testDatabaseName, testServerUrl } from './support/databases';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';
import { executeSwap, randomHex, waitForStatus } from './support/flows';
import { freePort } from './support/processes';
import { ensurePgBouncer, type PrivatePgBouncer, privatePgBouncer } from './support/scaled-servers';
import { stopInSteps } from './support/stop';

/**
 * The product behind a real PgBouncer in transaction mode (DATABASE_POOLER=transaction): execute,
 * track, status by id and hash, history, and a worker tracking swaps to the end, every statement
 * through the pooler; `LISTEN` on its own direct connection (DATABASE_LISTEN_URL), and nothing
 * listening without one. CI installs Debian's pgbouncer (scripts/services.sh --with-pgbouncer).
 */
const available = ensurePgBouncer();
if (!available) console.warn('pgbouncer.test.ts skipped: pgbouncer is not installed and apt-get could not install it');

let root: string;
let bouncer: PrivatePgBouncer;
let databaseName: string;
let t: TestApp;
let worker: WorkerRuntime | undefined;

describe.skipIf(!available)('behind PgBouncer in transaction mode', () => {
  beforeAll(async () => {
    root = mkdtempSync(`${tmpdir()}/sy-pgbouncer-`);
    databaseName = testDatabaseName('db', `pgb${Math.floor(Math.random() * 1e6)}`);
    const direct = await cloneTemplate(inject('templateDatabase'), databaseName);
    const server = testServerUrl();
    bouncer = privatePgBouncer({
      root,
      port: await freePort(),
      // Fewer server connections than the app's pool: consecutive statements of one client land on different ones.
      poolSize: 3,
      databases: {
        // A database whose server is not there: PgBouncer lets clients log in, then fails their first statement.
        down: { port: await freePort(), dbname: 'nothing' },
        [databaseName]: {
          port: Number(server.port || 5432),
          dbname: databaseName,
          password: decodeURIComponent(server.password),
        },
      },
    });
    await bouncer.start();
    t = await startTestApp({
      DATABASE_URL: bouncer.url(databaseName),
      DATABASE_POOLER: 'transaction',
      DATABASE_LISTEN_URL: direct,
      PROVIDER_DEADLINE_MS: '1500',
      TRACKING_TIME_SCALE: '0.01',
      TRACKING_MIN_INTERVAL_MS: '100',
      SWEEP_INTERVAL_MS: '600000',
      WORKER_HEALTH_PORT: '0',
      // 120 history reads at once from one address below: the per-client and per-process caps are not what this tries.
      HISTORY_READS_PER_CLIENT: '1000',
      HISTORY_READS_MAX: '1000',
      HISTORY_READ_WAIT_MS: '5000',
      // A statement whose answer the pooler dropped would hold its request until this.
      REQUEST_DEADLINE_MS: '5000',
    });
    worker = await startWorkerRuntime(t.app.config);
  }, 60_000);

  afterAll(() =>
    stopInSteps('pgbouncer test', [
      ['worker', () => worker?.close()],
      ...(t?.stopSteps ?? []),
      ['pgbouncer', () => bouncer?.stop()],
      ['files', () => root && rmSync(root, { recursive: true, force: true })],
    ]),
  );

  it('runs execute, track, status, history and tracking through the pooler', async () => {
    const before = bouncer.stats(databaseName);
    const swaps = await Promise.all([
      executeSwap(t, ETH_TO_BTC, 'RELAY'),
      executeSwap(t, BTC_TO_ETH, 'CHAINFLIP'),
      executeSwap(t, BTC_TO_ETH, 'THORCHAIN'),
    ]);
    for (const swap of swaps.slice(0, 2)) {
      const final = await waitForStatus(t, swap.transaction.id, (tx) => tx.status !== 'PENDING', {
        timeoutMs: 30_000,
      });
      expect(final.transaction.status).toBe('SUCCESS');
    }
    const thorchain = swaps[2].transaction.id;
    const hash = randomHex();
    const tracked = await t.post('/api/v1/transaction/track', { transactionId: thorchain, txHash: hash });
    expect(tracked.status).toBe(200);
    const byHash = await t.json(`/api/v1/transaction/status?hash=${hash}`);
    expect(byHash.status).toBe(200);
    expect(byHash.body.data.transaction.id).toBe(thorchain);
    const history = await t.json('/api/v1/transaction/history?perPage=10');
    expect(history.status).toBe(200);
    expect(history.body.data.map((tx: { id: string }) => tx.id)).toEqual(
      expect.arrayContaining(swaps.map((s) => s.transaction.id)),
    );

    // Many reads at once, more than the pool's connections: each carries one statement at a time. One
    // sent behind another would be answered to nobody (the pooler hands the server back at the first's end).
    const reads = await Promise.all(
      Array.from({ length: 120 }, (_, i) => t.fetch(`/api/v1/transaction/history?perPage=${1 + (i % 40)}`)),
    );
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));

    const after = bouncer.stats(databaseName);
    expect(after.transactions - before.transactions).toBeGreaterThan(20);
    // No server connection behind the pooler holds a statement prepared by name (with them on, each would).
    const probe = postgres(bouncer.url(databaseName), { prepare: false, max: 3, onnotice: () => {} });
    try {
      const counts = await Promise.all(
        Array.from({ length: 12 }, () =>
          probe.begin(async (tx) => {
            await tx`select pg_sleep(0.02)`;
            const [row] = await tx<{ n: number }[]>`select count(*)::int as n from pg_prepared_statements`;
            return row?.n ?? 0;
          }),
        ),
      );
      expect(Math.max(...counts)).toBe(0);
    } finally {
      await probe.end();
    }
  }, 90_000);

  it('a server PgBouncer cannot reach costs the statement, and nothing else (no unhandled rejection)', async () => {
    // postgres.js asks for the array types first on a new connection; behind PgBouncer that query's failure
    // went unhandled and killed both web processes at the scaled soak's Postgres restart (patched). Here
    // only the outcome is checked: the statement gets no answer, and the process carries on.
    // (max_pipeline is read by postgres.js but missing from its types, hence the spread.)
    const client = postgres(bouncer.url('down'), { prepare: false, onnotice: () => {}, ...{ max_pipeline: 0 } });
    try {
      // It fails or keeps trying to connect (the request's deadline bounds it in the product); it never answers.
      const outcome = await Promise.race([
        client`select 1`.then(
          () => 'answered',
          () => 'failed',
        ),
        new Promise((resolve) => setTimeout(() => resolve('still connecting'), 2000)),
      ]);
      expect(outcome).not.toBe('answered');
    } finally {
      await client.end({ timeout: 1 });
    }
  });

  it('listens on DATABASE_LISTEN_URL, so answers of pending swaps are kept until a change is heard', async () => {
    const swap = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const first = await t.json(`/api/v1/transaction/status?transactionId=${swap.transaction.id}`);
    expect(first.status).toBe(200);
    await answerChanges(t.app).ready;
    expect(answerChanges(t.app).listens).toBeGreaterThan(0);
  });

  it('without DATABASE_LISTEN_URL nothing listens through the pooler, and status reads still answer', async () => {
    const sibling = await startSibling(t, { DATABASE_LISTEN_URL: '' });
    try {
      expect(sibling.app.listenSql).toBeUndefined();
      const swap = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
      const res = await fetch(`${sibling.baseUrl}/api/v1/transaction/status?transactionId=${swap.transaction.id}`);
      expect(res.status).toBe(200);
      await answerChanges(sibling.app).ready;
      expect(answerChanges(sibling.app).listens).toBe(0);
    } finally {
      await sibling.stop();
    }
  });
});
