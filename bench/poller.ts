/**
 * The tracking section's child process: polls the pending bench transactions either through the
 * real BullMQ worker runtime or through a bare loop (the same upstream status call and one UPDATE),
 * and counts polls from the database (sum of poll_attempts) over a measured window.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { parseConfig } from '../server/config';
import { startWorkerRuntime } from '../workers/runtime';

export interface PollRound {
  type: 'bullmq' | 'bare';
  id: number;
  wallet: string;
  warmupMs: number;
  durationMs: number;
}

/** Polls through BullMQ until every swap of the wallet has taken its deposit hash from the provider (bounded). */
export interface PrimeRound {
  type: 'prime';
  id: number;
  wallet: string;
  maxMs: number;
}

export interface PollResult {
  polls: number;
  seconds: number;
  perSecond: number;
}

const config = parseConfig({ ...process.env });
const sql = postgres(config.databaseUrl, { max: 2, onnotice: () => {} });

async function pollsSoFar(wallet: string): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select coalesce(sum(poll_attempts), 0)::bigint as n from transactions
    where wallet_key = ${wallet}`;
  return Number(row?.n ?? 0);
}

async function measure(round: PollRound): Promise<PollResult> {
  await sleep(round.warmupMs);
  const a = await pollsSoFar(round.wallet);
  const t0 = performance.now();
  await sleep(round.durationMs);
  const b = await pollsSoFar(round.wallet);
  const seconds = (performance.now() - t0) / 1000;
  return { polls: b - a, seconds, perSecond: (b - a) / seconds };
}

async function throughBullmq(round: PollRound): Promise<PollResult> {
  const runtime = await startWorkerRuntime(config);
  try {
    return await measure(round);
  } finally {
    await runtime.close();
  }
}

/**
 * A swap's first poll after its deposit takes the hash and writes its events; every later one is quiet.
 * The rounds measure the steady state, so the first polls are made before them.
 */
async function prime(round: PrimeRound): Promise<PollResult> {
  const runtime = await startWorkerRuntime(config);
  const t0 = performance.now();
  try {
    while (performance.now() - t0 < round.maxMs) {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from transactions
        where wallet_key = ${round.wallet} and inbound_hash = ''`;
      if (row?.n === 0) break;
      await sleep(250);
    }
    const polls = await pollsSoFar(round.wallet);
    const seconds = (performance.now() - t0) / 1000;
    return { polls, seconds, perSecond: polls / seconds };
  } finally {
    await runtime.close();
  }
}

/** What a hand-written poller would do: the provider's status call, then one UPDATE. */
async function throughBareLoop(round: PollRound): Promise<PollResult> {
  const pool = postgres(config.databaseUrl, { max: config.databasePoolMax, onnotice: () => {} });
  const rows = await pool<{ id: string; requestId: string }[]>`select id, tracking_context->>'requestId' as "requestId"
    from transactions where wallet_key = ${round.wallet} order by id`;
  const base = config.providers.RELAY.baseUrl as string;
  let running = true;
  let cursor = 0;
  const loop = async () => {
    while (running) {
      const tx = rows[cursor++ % rows.length] as (typeof rows)[number];
      try {
        const res = await fetch(`${base}/intents/status/v2?requestId=${encodeURIComponent(tx.requestId)}`, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(config.providers.RELAY.deadlineMs),
        });
        const body = (await res.json()) as { status?: string };
        await pool`update transactions set poll_attempts = poll_attempts + 1, poll_errors = 0, last_polled_at = now(),
            last_upstream_state = ${body.status ?? 'unknown'}, next_poll_at = now() + interval '5 seconds', updated_at = now()
          where id = ${tx.id}`;
      } catch {
        await sleep(10);
      }
    }
  };
  const loops = Array.from({ length: config.worker.trackingConcurrency }, loop);
  try {
    return await measure(round);
  } finally {
    running = false;
    await Promise.all(loops);
    await pool.end({ timeout: 2 });
  }
}

process.on('message', (message: PollRound | PrimeRound | { type: 'exit' }) => {
  if (message.type === 'exit') {
    void sql.end({ timeout: 2 }).finally(() => process.exit(0));
    return;
  }
  let work: Promise<PollResult>;
  if (message.type === 'prime') work = prime(message);
  else work = message.type === 'bullmq' ? throughBullmq(message) : throughBareLoop(message);
  work.then(
    (result) => process.send?.({ id: message.id, result }),
    (error: Error) => process.send?.({ id: message.id, error: error.message }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
