/**
 * 6. Execute: 20 parallel executes of one lock through the lean server, repeated for 500 locks.
 * Exactly one may win each round (asserted over HTTP and in the database); locks executed per
 * second against a baseline of the bare claim race (the same conditional UPDATE from 20
 * connections, nothing else).
 */
import { performance } from 'node:perf_hooks';
import { cloneLocks, lockRoute } from './fixtures';
import { httpRequest } from './load';
import type { Bench } from './setup';

const SECTION = 'execute';
const PARALLEL = 20;
const LOCKS = 500;

async function bareClaimRace(b: Bench, lockIds: string[], maxMs: number) {
  const started = performance.now();
  let rounds = 0;
  let wrong = 0;
  for (const id of lockIds) {
    if (performance.now() - started > maxMs) break;
    const answers = await Promise.all(
      Array.from(
        { length: PARALLEL },
        () => b.sql`update locks set state = 'executing', claimed_at = now(), updated_at = now()
          where id = ${id} and state = 'locked' and expires_at > now() returning id`,
      ),
    );
    rounds += 1;
    if (answers.filter((rows) => rows.length === 1).length !== 1) wrong += 1;
  }
  const elapsedMs = performance.now() - started;
  return { rounds, wrong, perSecond: (rounds / elapsedMs) * 1000 };
}

export async function executeSection(b: Bench): Promise<void> {
  const api = await b.api();
  const n = b.count(LOCKS, 10);
  const template = await lockRoute(api.port);
  const lockIds = await cloneLocks(b.sql, template, n);
  const bareIds = await cloneLocks(b.sql, template, n);

  const run = await b.load.rounds({
    label: 'execute',
    port: api.port,
    rounds: lockIds.map((lockId) => httpRequest('POST', api.port, '/api/v1/quote/execute', { lockId })),
    parallel: PARALLEL,
    maxDurationMs: b.ms(90, 20_000),
  });
  const bare = await bareClaimRace(b, bareIds, b.ms(60, 10_000));
  console.log(
    `    ${run.rounds} locks × ${PARALLEL} executes: ${run.roundsPerSecond.toFixed(1)} locks/s; statuses ${JSON.stringify(run.statuses)}; ` +
      `bare claim race ${bare.perSecond.toFixed(1)} locks/s`,
  );

  const done = lockIds.slice(0, run.rounds);
  const doubleWins = run.successesPerRound.filter((s) => s > 1).length;
  const noWinner = run.successesPerRound.filter((s) => s === 0).length;
  const [db] = await b.sql<{ transactions: number; unused: number }[]>`
    select (select count(*)::int from transactions where lock_id = any(${b.sql.array(done)}::text[])) as transactions,
           (select count(*)::int from locks where id = any(${b.sql.array(done)}::text[]) and state <> 'used') as unused`;
  const winners = run.successesPerRound.reduce((s, v) => s + v, 0);
  if (doubleWins) b.report.violation(`execute: ${doubleWins} of ${run.rounds} locks had more than one winner`);
  if (noWinner) b.report.violation(`execute: ${noWinner} of ${run.rounds} locks had no winner`);
  if (db && db.transactions !== winners) {
    b.report.violation(`execute: ${winners} winning answers but ${db.transactions} transactions recorded`);
  }
  if (db && db.unused > 0) b.report.violation(`execute: ${db.unused} executed locks not marked used`);
  if (bare.wrong) b.report.violation(`execute baseline: ${bare.wrong} claim races without exactly one winner`);
  const losers = Object.entries(run.statuses).filter(([s]) => s !== '200' && s !== '409');
  if (losers.length) {
    b.report.note(
      `execute: answers other than 200/409: ${JSON.stringify(Object.fromEntries(losers))} ${run.errorSample ?? ''}`,
    );
  }
  if (run.rounds < n) b.report.note(`execute: time bound reached after ${run.rounds} of ${n} locks`);
  b.report.details.execute = { run, bare, database: db, parallel: PARALLEL };

  b.report.add({
    section: SECTION,
    name: `execute: locks raced (${PARALLEL} executes each)`,
    value: run.rounds,
    unit: 'locks',
  });
  b.report.add({
    section: SECTION,
    name: 'execute: locks without exactly one winner',
    value: doubleWins + noWinner,
    unit: 'violations',
  });
  b.report.add({
    section: SECTION,
    name: 'execute: locks executed/s',
    value: run.roundsPerSecond,
    unit: 'locks/s',
    baseline: bare.perSecond,
    baselineName: 'bare claim race',
    gate: { key: 'execute', target: 0.5 },
  });
  b.report.add({ section: SECTION, name: 'execute: request p50', value: run.latency.p50Ms, unit: 'ms' });
  b.report.add({ section: SECTION, name: 'execute: request p99', value: run.latency.p99Ms, unit: 'ms' });
}
