/**
 * Execute races: locks cloned from one real lock (the bench's documented fixture path), each hit by
 * `raceParallel` concurrent executes spread over both web processes and many client addresses, with
 * `racingLocks` locks in the air at once. Exactly one execute may win each lock.
 */
import type postgres from 'postgres';
import { ETH_TO_BTC } from '../../test/support/fixtures';
import { cloneLocks } from '../fixtures';
import { json } from './http';
import { type Pace, pacedLanes } from './pace';
import type { Recorder } from './recorder';

export interface RaceStats {
  locksRaced: number;
  executesSent: number;
  /** Locks more than one execute won: each one a double execute. */
  doubleWins: number;
  /** Locks nobody won outside an outage (no answer at all inside one is no violation). */
  noWinner: number;
  noWinnerDuringOutage: number;
  statuses: Record<string, number>;
  winners: Map<string, number>;
  lockIds: string[];
  /** Every execute answered 2xx, with the transaction it named: each must be in the database at the end. */
  acknowledged: { lockId: string; transactionId: string | undefined; at: number }[];
  violations: string[];
}

export async function templateLock(rec: Recorder, base: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const res = await rec.request({
      method: 'POST',
      base,
      path: '/api/v1/quote/lock',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...ETH_TO_BTC, provider: 'RELAY' }),
    });
    const lockId = json(res.text)?.data?.lockId;
    if (res.status === 200 && lockId) return lockId;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('no template lock for the execute races');
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const newRaceStats = (): RaceStats => ({
  locksRaced: 0,
  executesSent: 0,
  doubleWins: 0,
  noWinner: 0,
  noWinnerDuringOutage: 0,
  statuses: {},
  winners: new Map(),
  lockIds: [],
  acknowledged: [],
  violations: [],
});

export async function runRaces(
  stats: RaceStats,
  rec: Recorder,
  sql: postgres.Sql,
  webBases: string[],
  o: { template: string; pace: Pace; deadline: number; parallel: number; racingLocks: number },
): Promise<RaceStats> {
  // Locks are cloned a batch ahead of the racers, one batch at a time.
  const pool: string[] = [];
  let refill: Promise<void> | undefined;
  const topUp = () => {
    refill ??= (async () => {
      const want = Math.min(250, o.pace.quota - stats.locksRaced - pool.length + o.racingLocks);
      if (want > 0) pool.push(...(await cloneLocks(sql, o.template, want)));
    })().finally(() => {
      refill = undefined;
    });
    return refill;
  };
  const nextLock = async (): Promise<string | undefined> => {
    while (Date.now() < o.deadline) {
      if (pool.length < 50) void topUp().catch(() => {});
      // Oldest first: a lock expires 15 min after it is cloned, and at a slow pace the oldest would wait that long.
      const lockId = pool.shift();
      if (lockId) return lockId;
      // Wait for the batch in flight; if it failed (Postgres restarting), try again shortly.
      await (refill ?? sleep(100)).catch(() => sleep(500));
    }
    return undefined;
  };

  let address = 0;
  /** One lock raced by `parallel` executes; false when nobody answered (no race). */
  const race = async (): Promise<boolean> => {
    const lockId = await nextLock();
    if (!lockId) return true;
    const startedAt = Date.now();
    const answers = await Promise.all(
      Array.from({ length: o.parallel }, (_, i) => {
        address += 1;
        return rec.request({
          method: 'POST',
          base: webBases[i % webBases.length] as string,
          path: '/api/v1/quote/execute',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ lockId }),
          from: `127.0.2.${(address % 64) + 1}`,
        });
      }),
    );
    stats.executesSent += answers.length;
    // Nobody answering (a web process down): not a race.
    if (answers.every((a) => a.status === 0)) return false;
    stats.locksRaced += 1;
    stats.lockIds.push(lockId);
    for (const a of answers) stats.statuses[a.status] = (stats.statuses[a.status] ?? 0) + 1;
    const wins = answers.filter((a) => a.status === 200).length;
    for (const a of answers.filter((a) => a.status >= 200 && a.status < 300)) {
      stats.acknowledged.push({ lockId, transactionId: json(a.text)?.data?.transaction?.id, at: Date.now() });
    }
    stats.winners.set(lockId, wins);
    if (wins > 1) {
      stats.doubleWins += 1;
      stats.violations.push(`${lockId}: ${wins} executes won`);
    } else if (wins === 0) {
      if (rec.outageAt(startedAt, Date.now())) stats.noWinnerDuringOutage += 1;
      else {
        stats.noWinner += 1;
        if (stats.violations.length < 20) {
          const sample = answers.map((a) => `${a.status}${a.error ? `(${a.error})` : ''}`).join(',');
          stats.violations.push(`${lockId}: no winner outside an outage: ${sample}`);
        }
      }
    }
    return true;
  };

  await pacedLanes(o.pace, o.deadline, o.racingLocks, race);
  return stats;
}
