/**
 * The books, once the load has stopped: every swap settled as scripted with the right hashes, no
 * lock executed twice, nothing pending left untracked, a timeline row for every change, the
 * rate-limit hits adding up, and no idempotent replay differing from its original.
 */
import type postgres from 'postgres';
import { clientHash } from '../../server/ratelimit/client';
import { createWorkerRedis } from '../../server/redis';
import { createQueue } from '../../server/tracking/queues';
import { SOAK } from './config';
import { productEnv, redisTarget } from './processes';
import type { RaceStats } from './races';
import type { Recorder } from './recorder';
import type { Swap, Traffic } from './traffic';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Books {
  swapsExecuted: number;
  /** Not recorded, or still PENDING with no job and not due for the sweep: nothing will ever settle them. */
  swapsLost: number;
  lostSamples: string[];
  /** Still PENDING after the settle wait, but tracked (a job queued) or due for the sweep: slow, not lost. */
  swapsLate: number;
  lateSamples: string[];
  /** THORChain swaps whose deposit the traffic never made (the simulator did not answer): rightly still awaiting it. */
  awaitingDeposit: number;
  wrongEnding: number;
  wrongEndingSamples: string[];
  /** Swaps that ended FAILED / EXPIRED because their deposit was never made: correct, not wrong endings. */
  expiredUnfunded: number;
  wrongHashes: number;
  doubleExecutes: number;
  raceTransactions: number;
  /** Raced transactions still PENDING with no job and not due for the sweep. */
  raceTransactionsUnsettled: number;
  raceTransactionsLate: number;
  untracked: number;
  untrackedSamples: string[];
  timelineGaps: number;
  timelineSamples: string[];
  rateLimit: { observed429: number; recorded: number; addsUp: boolean };
  replays: { checked: number; differing: number; samples: string[] };
  /** Every execute a client was answered 2xx (swap flows and race winners), looked up after the failovers. */
  acknowledgedExecutes: { checked: number; missing: number; missingSamples: string[] };
  settleMs: number;
  statusLagMs: number[];
  /**
   * The product's part of the status lag: how long after a swap went final a status read still answered
   * PENDING (0 when the first read after it answered final). The rest of the lag is the polling client's
   * own cadence: one sequential loop over up to 50 swaps, which every slow answer during a fault holds up.
   */
  staleAnswerMs: number[];
  trackingMs: number[];
}

/**
 * Whether every acknowledged execute is recorded: the transaction the answer named, on the lock it
 * executed. One missing is a write the database acknowledged and then lost (as an asynchronous
 * replica promoted over the commit would).
 */
async function acknowledgedExecutes(sql: postgres.Sql, traffic: Traffic, races: RaceStats) {
  const acknowledged = [
    ...traffic.swaps.flatMap((s) =>
      s.executedAt !== undefined ? [{ lockId: s.lockId, transactionId: s.transactionId, at: s.executedAt }] : [],
    ),
    ...races.acknowledged,
  ];
  const rows = await sql<{ id: string; lock_id: string }[]>`select id, lock_id from transactions
    where lock_id = any(${sql.array(acknowledged.map((a) => a.lockId))}::text[])`;
  const recorded = new Map(rows.map((r) => [r.lock_id, r.id]));
  const missing = acknowledged.filter((a) => !a.transactionId || recorded.get(a.lockId) !== a.transactionId);
  return {
    checked: acknowledged.length,
    missing: missing.length,
    missingSamples: missing
      .slice(0, 20)
      .map(
        (a) => `lock ${a.lockId} → ${a.transactionId ?? '(no id in the answer)'} at ${new Date(a.at).toISOString()}`,
      ),
  };
}

/** Swaps whose execute got no answer: the database says whether they were executed. */
async function resolveUncertain(sql: postgres.Sql, swaps: Swap[]) {
  for (const swap of swaps.filter((s) => s.uncertain && !s.transactionId)) {
    const [row] = await sql<{ id: string }[]>`select id from transactions where lock_id = ${swap.lockId}`;
    if (row) swap.transactionId = row.id;
  }
}

export async function waitForSettlement(sql: postgres.Sql, ids: string[], timeoutMs: number) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const [row] = await sql<{ pending: number }[]>`select count(*)::int as pending from transactions
      where id = any(${sql.array(ids)}::text[]) and status = 'PENDING'`;
    if ((row?.pending ?? 0) === 0) break;
    await sleep(1000);
  }
  return Date.now() - started;
}

export async function rateLimitBurst(rec: Recorder, base: string, requests: number) {
  let observed = 0;
  const from = '127.0.0.9';
  const lane = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await rec.request({ method: 'GET', base, path: '/api/v1/swap/chains?perPage=1', from });
      if (res.status === 429) observed += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, () => lane(Math.ceil(requests / 8))));
  return observed;
}

async function recordedHits(sql: postgres.Sql): Promise<number> {
  const hash = clientHash('127.0.0.9', productEnv.RATE_LIMIT_HASH_KEY as string);
  const [row] = await sql<{ hits: number }[]>`select coalesce(sum(hits), 0)::int as hits from rate_limit_hits
    where client_hash = ${hash}`;
  return row?.hits ?? 0;
}

export async function checkBooks(
  sql: postgres.Sql,
  rec: Recorder,
  traffic: Traffic,
  races: RaceStats,
  burst429: number,
): Promise<Books> {
  await resolveUncertain(sql, traffic.swaps);
  const swaps = traffic.swaps.filter((s) => s.transactionId);
  const ids = swaps.map((s) => s.transactionId as string);
  const [raceTx] = await sql<{ ids: string[] }[]>`select coalesce(array_agg(id), '{}') as ids from transactions
    where lock_id = any(${sql.array(races.lockIds)}::text[])`;
  const raceIds = raceTx?.ids ?? [];
  const settleMs = await waitForSettlement(sql, [...ids, ...raceIds], SOAK.settleTimeoutMs);

  // Whether each PENDING transaction is still tracked: a BullMQ job queued, or the sweep due to find it soon.
  const pendingTracked = new Map<string, boolean>();
  const untrackedSamples: string[] = [];
  const connection = createWorkerRedis(redisTarget);
  connection.on('error', () => {});
  const tracking = createQueue('tracking', connection, SOAK.redisPrefix);
  try {
    // awaiting_client: no hash yet (or a rejected one cleared) and a deposit deadline: nothing polls it, and
    // the expiry sweep ends it FAILED / EXPIRED past the deadline unless its client reports the right hash.
    const pending = await sql<{ id: string; next_poll_at: Date | null; awaiting_client: boolean }[]>`
      select id, next_poll_at, (hash = '' and inbound_hash = '' and deposit_deadline is not null) as awaiting_client
      from transactions where status = 'PENDING'`;
    const sweepHorizon = Date.now() + 10 * 60_000;
    for (const tx of pending) {
      const job = await tracking.getJob(tx.id);
      const state = job ? await job.getState() : undefined;
      const queued = state === 'delayed' || state === 'waiting' || state === 'active' || state === 'prioritized';
      const sweepable =
        tx.awaiting_client || (tx.next_poll_at !== null && new Date(tx.next_poll_at).getTime() < sweepHorizon);
      pendingTracked.set(tx.id, queued || sweepable);
      if (!queued && !sweepable && untrackedSamples.length < 20)
        untrackedSamples.push(`${tx.id} (job ${state ?? 'missing'})`);
    }
  } finally {
    await tracking.close();
    connection.disconnect();
  }

  const rows = await sql<
    {
      id: string;
      status: string;
      substatus: string | null;
      hash: string;
      inbound_hash: string;
      outbound_hash: string | null;
      finalized_at: Date | null;
      created_at: Date;
    }[]
  >`select id, status, substatus, hash, inbound_hash, outbound_hash, finalized_at, created_at from transactions
    where id = any(${sql.array(ids)}::text[])`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const books: Books = {
    swapsExecuted: swaps.length,
    swapsLost: 0,
    lostSamples: [],
    swapsLate: 0,
    lateSamples: [],
    awaitingDeposit: 0,
    wrongEnding: 0,
    wrongEndingSamples: [],
    expiredUnfunded: 0,
    wrongHashes: 0,
    doubleExecutes: races.doubleWins,
    raceTransactions: raceIds.length,
    raceTransactionsUnsettled: 0,
    raceTransactionsLate: 0,
    untracked: [...pendingTracked.values()].filter((tracked) => !tracked).length,
    untrackedSamples,
    timelineGaps: 0,
    timelineSamples: [],
    rateLimit: { observed429: burst429, recorded: 0, addsUp: false },
    replays: { checked: traffic.replays.length, differing: 0, samples: [] },
    acknowledgedExecutes: await acknowledgedExecutes(sql, traffic, races),
    settleMs,
    statusLagMs: [],
    staleAnswerMs: [],
    trackingMs: [],
  };

  for (const swap of swaps) {
    const row = byId.get(swap.transactionId as string);
    if (row?.status === 'PENDING' && pendingTracked.get(row.id)) {
      books.swapsLate += 1;
      if (books.lateSamples.length < 20)
        books.lateSamples.push(`${swap.provider} ${swap.ending} ${swap.transactionId} still PENDING, tracked`);
      continue;
    }
    if (row?.status === 'PENDING' && !swap.depositMade) {
      books.awaitingDeposit += 1;
      continue;
    }
    if (!row || row.status === 'PENDING') {
      books.swapsLost += 1;
      if (books.lostSamples.length < 20)
        books.lostSamples.push(
          `${swap.provider} ${swap.ending} ${swap.transactionId} ${row ? 'still PENDING, untracked' : 'not recorded'}`,
        );
      continue;
    }
    // A swap whose deposit was never made may rightly expire waiting for it; one whose deposit was made may not.
    const expiredUnfunded = row.status === 'FAILED' && row.substatus === 'EXPIRED' && !swap.depositMade;
    if (expiredUnfunded) books.expiredUnfunded += 1;
    else if (row.status !== swap.expected) {
      books.wrongEnding += 1;
      if (books.wrongEndingSamples.length < 20)
        books.wrongEndingSamples.push(
          `${swap.provider} ${swap.ending}: ${swap.transactionId} is ${row.status}, expected ${swap.expected}`,
        );
    }
    const hashesRight =
      (swap.hash === undefined || row.inbound_hash.toLowerCase().replace(/^0x/, '') === swap.hash.toLowerCase()) &&
      (row.status !== 'SUCCESS' || Boolean(row.outbound_hash));
    if (!hashesRight) books.wrongHashes += 1;
    const finalizedAt = row.finalized_at ? new Date(row.finalized_at).getTime() : undefined;
    if (finalizedAt) books.trackingMs.push(finalizedAt - new Date(row.created_at).getTime());
    if (finalizedAt && swap.finalSeenAt) {
      books.statusLagMs.push(Math.max(0, swap.finalSeenAt - finalizedAt));
      books.staleAnswerMs.push(Math.max(0, (swap.pendingReadAt ?? 0) - finalizedAt));
    }
  }

  const unsettledRaces = await sql<{ id: string }[]>`select id from transactions
    where id = any(${sql.array(raceIds)}::text[]) and status = 'PENDING'`;
  books.raceTransactionsLate = unsettledRaces.filter((r) => pendingTracked.get(r.id)).length;
  books.raceTransactionsUnsettled = unsettledRaces.length - books.raceTransactionsLate;

  // No lock executed twice: the HTTP winners above, and the records (a lock has at most one transaction).
  const [doubles] = await sql<{ n: number }[]>`select count(*)::int as n from (select lock_id from transactions
    group by lock_id having count(*) > 1) d`;
  books.doubleExecutes += doubles?.n ?? 0;

  // A timeline row for every change: created, and a status change into each final status.
  const gaps = await sql<{ id: string; status: string; created: number; changed: number }[]>`
    select t.id, t.status,
      count(*) filter (where e.type = 'created')::int as created,
      count(*) filter (where e.type = 'status_changed' and e.to_status = t.status)::int as changed
    from transactions t left join transaction_events e on e.transaction_id = t.id
    group by t.id, t.status
    having count(*) filter (where e.type = 'created') <> 1
      or (t.status <> 'PENDING' and count(*) filter (where e.type = 'status_changed' and e.to_status = t.status) = 0)`;
  books.timelineGaps = gaps.length;
  books.timelineSamples = gaps
    .slice(0, 20)
    .map((g) => `${g.id} ${g.status}: created×${g.created}, changed×${g.changed}`);

  // The rate-limit hits add up: every 429 the noisy client saw is counted once in the rollup.
  for (let i = 0; i < 30; i++) {
    books.rateLimit.recorded = await recordedHits(sql);
    if (books.rateLimit.recorded >= burst429) break;
    await sleep(1000);
  }
  books.rateLimit.addsUp = books.rateLimit.recorded === burst429;

  const differing = traffic.replays.filter((r) => !r.same);
  books.replays.differing = differing.length;
  books.replays.samples = differing.slice(0, 10).map((r) => `${r.endpoint}: ${r.detail}`);
  void rec;
  return books;
}
