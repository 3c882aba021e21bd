/**
 * What synchronous replication costs an execute, measured on the scaled soak's own Patroni cluster before
 * the load starts: the same execute race (20 executes of one lock, one winner) through the product, in
 * alternating slices with the commit waiting for the standby (`synchronous_commit = on`, what ships) and
 * not (`local`, set cluster-wide for the slice with ALTER SYSTEM and a reload, then reset). The bench's
 * `execute` section runs against the shared test server, which has no replica, so it cannot measure this.
 */
import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import { cloneLocks } from '../fixtures';
import { send } from './http';

const PARALLEL = 20;

async function setSynchronousCommit(sql: postgres.Sql, value: 'local' | null) {
  if (value) await sql.unsafe(`alter system set synchronous_commit = '${value}'`);
  else await sql.unsafe('alter system reset synchronous_commit');
  await sql`select pg_reload_conf()`;
  // Backends read the reloaded file at their next statement; give the signal a moment to land.
  await new Promise((r) => setTimeout(r, 300));
}

async function raceFor(sql: postgres.Sql, base: string, template: string, ms: number) {
  const lockIds = await cloneLocks(sql, template, 400);
  const latencies: number[] = [];
  let locks = 0;
  const started = Date.now();
  for (const lockId of lockIds) {
    if (Date.now() - started > ms) break;
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        send({
          method: 'POST',
          base,
          path: '/api/v1/quote/execute',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ lockId }),
          from: `127.0.3.${(i % 64) + 1}`,
        }),
      ),
    );
    const win = answers.find((a) => a.status === 200);
    if (win) latencies.push(win.ms);
    locks += 1;
  }
  return { locks, seconds: (Date.now() - started) / 1000, latencies };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round((sorted[Math.floor(sorted.length / 2)] as number) * 10) / 10 : null;
};

/** One small committed write at a time (no HTTP, no contention): what the standby's flush adds to a commit. */
async function bareCommitMs(sql: postgres.Sql, mode: 'on' | 'local', commits = 300) {
  await sql`create table if not exists soak_commit_probe (id int primary key, n bigint not null)`;
  const started = performance.now();
  for (let i = 0; i < commits; i++) {
    await sql.begin(async (tx) => {
      await tx.unsafe(`set local synchronous_commit = ${mode}`);
      await tx`insert into soak_commit_probe values (1, 1) on conflict (id) do update set n = soak_commit_probe.n + 1`;
    });
  }
  return Math.round(((performance.now() - started) / commits) * 1000) / 1000;
}

export async function synchronousCommitCost(sql: postgres.Sql, base: string, template: string, sliceMs = 8_000) {
  const totals = {
    on: { locks: 0, seconds: 0, latencies: [] as number[] },
    local: { locks: 0, seconds: 0, latencies: [] as number[] },
  };
  try {
    for (const mode of ['local', 'on', 'local', 'on'] as const) {
      await setSynchronousCommit(sql, mode === 'local' ? 'local' : null);
      const slice = await raceFor(sql, base, template, sliceMs);
      totals[mode].locks += slice.locks;
      totals[mode].seconds += slice.seconds;
      totals[mode].latencies.push(...slice.latencies);
    }
  } finally {
    await setSynchronousCommit(sql, null);
  }
  const bare = { local: await bareCommitMs(sql, 'local'), synchronous: await bareCommitMs(sql, 'on') };
  const rate = (t: { locks: number; seconds: number }) => (t.seconds ? t.locks / t.seconds : 0);
  const synchronous = rate(totals.on);
  const local = rate(totals.local);
  return {
    parallel: PARALLEL,
    synchronousLocksPerSecond: Math.round(synchronous * 10) / 10,
    localLocksPerSecond: Math.round(local * 10) / 10,
    /** Locks executed per second with the commit waiting for the standby, over without. */
    ratio: local ? Math.round((synchronous / local) * 100) / 100 : null,
    winnerP50Ms: { synchronous: median(totals.on.latencies), local: median(totals.local.latencies) },
    /** Mean time of one small write transaction, alone, each way. */
    bareCommitMs: bare,
  };
}
