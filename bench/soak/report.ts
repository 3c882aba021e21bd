/** soak.json and the printed summary; the verdict decides the exit code. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { accuracyLine, type SoakAccuracy } from './accuracy';
import type { Books } from './books';
import { CHAOS_KINDS, type ChaosEvent } from './chaos';
import { SOAK, TARGETS } from './config';
import type { FuzzStats } from './fuzz';
import type { memoryReport } from './memory';
import { crashes, topology } from './processes';
import type { RaceStats } from './races';
import { type Recorder, round } from './recorder';
import type { synchronousCommitCost } from './sync-cost';
import type { TrafficStats } from './traffic';
import { judgeDeploys, judgeLoad, type Sample, verdict } from './verdict';

const RESULTS = new URL('../results/soak.json', import.meta.url).pathname;

function percentile(values: number[], q: number) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export interface SoakRun {
  startedAt: Date;
  durationMs: number;
  rec: Recorder;
  traffic: TrafficStats;
  races: RaceStats;
  fuzz: FuzzStats;
  chaos: ChaosEvent[];
  books: Books;
  /** The promise kept: the Operations page's route-time accuracy over the soak's swaps. */
  accuracy: SoakAccuracy;
  memory: ReturnType<typeof memoryReport>;
  /** The soak's own CPU time (its load); each product process's is in `memory.instances`. */
  driverCpuSeconds: number;
  /** The race and fuzz drivers' counts over the run (ms since the start), for the machine's unfaulted rate. */
  samples: { raceLocks: Sample[]; fuzzCases: Sample[] };
  /** Scaled: execute races with and without waiting for the synchronous standby, before the load. */
  synchronousCommit?: Awaited<ReturnType<typeof synchronousCommitCost>>;
}

/** The write outage a Postgres failover may cost (the issue's goal). */
const FAILOVER_WRITE_OUTAGE_MAX_MS = 30_000;

export function buildReport(run: SoakRun) {
  const { rec, races, fuzz, chaos, books, memory } = run;
  const failures: string[] = [];
  if (books.swapsLost) failures.push(`${books.swapsLost} swaps lost`);
  if (run.traffic.statusNotFound)
    failures.push(`${run.traffic.statusNotFound} status reads did not find an executed swap (read-your-writes)`);
  if (!memory.growthOk)
    failures.push(`memory grew past ${memory.growthMax * 100}% after warm-up: ${memory.grewTooMuch.join(', ')}`);
  if (books.doubleExecutes) failures.push(`${books.doubleExecutes} double executes`);
  if (rec.serverErrorsOutsideOutage) failures.push(`${rec.serverErrorsOutsideOutage} 5xx outside an outage window`);
  if (fuzz.failures) failures.push(`${fuzz.failures} fuzz answers broke the envelope`);
  if (books.wrongEnding) failures.push(`${books.wrongEnding} swaps ended other than scripted`);
  if (books.wrongHashes) failures.push(`${books.wrongHashes} swaps with wrong hashes`);
  if (races.noWinner) failures.push(`${races.noWinner} raced locks without a winner outside an outage`);
  if (books.untracked) failures.push(`${books.untracked} pending transactions untracked`);
  if (books.timelineGaps) failures.push(`${books.timelineGaps} transactions with timeline gaps`);
  if (!books.rateLimit.addsUp) failures.push('rate-limit hits do not add up');
  if (books.replays.differing) failures.push(`${books.replays.differing} idempotent replays differ`);
  if (crashes.length)
    failures.push(`${crashes.length} product processes crashed: ${crashes.map((c) => c.name).join(', ')}`);
  if (books.raceTransactionsUnsettled) failures.push(`${books.raceTransactionsUnsettled} raced transactions unsettled`);
  if (books.acknowledgedExecutes.missing)
    failures.push(`${books.acknowledgedExecutes.missing} acknowledged executes not in the database`);
  const failovers = chaos.filter((e) => e.kind === 'kill-postgres-primary');
  for (const f of failovers) {
    if (f.writeOutageMs === undefined || f.writeOutageMs > FAILOVER_WRITE_OUTAGE_MAX_MS)
      failures.push(`a Postgres failover kept writes out ${f.writeOutageMs ?? 'for good'} ms (goal ≤ 30 s)`);
  }
  // During a failover clients are told to come back (503 with Retry-After), never shown a server fault.
  const failoverOutages = rec.outages.filter((o) => o.kind === 'kill-postgres-primary');
  const failoverFaults = failoverOutages.reduce((n, o) => n + o.serverErrorsDuring - o.unavailableDuring, 0);
  if (failoverFaults) failures.push(`${failoverFaults} 5xx other than 503 during Postgres failovers`);
  const unhinted = failoverOutages.reduce((n, o) => n + o.unavailableWithoutRetryAfter, 0);
  if (unhinted) failures.push(`${unhinted} 503s without Retry-After during Postgres failovers`);
  const deploys = chaos.flatMap((e) => (e.deploy ? [e.deploy] : []));
  failures.push(
    ...judgeDeploys(
      deploys,
      rec.outages.filter((o) => o.kind === 'deploy'),
    ),
  );
  const firstFaultAt = (chaos[0]?.at ?? run.startedAt.getTime() + run.durationMs) - run.startedAt.getTime();
  // The drivers stop at the deadline; the chaos may run past it waiting for recoveries.
  const loadMs = Math.min(run.durationMs, SOAK.seconds * 1000);
  const load = [
    judgeLoad({
      name: 'execute races (locks)',
      count: races.locksRaced,
      floor: SOAK.quota.raceLocks,
      durationMs: loadMs,
      samples: run.samples.raceLocks,
      firstFaultAt,
    }),
    judgeLoad({
      name: 'fuzz cases',
      count: fuzz.cases,
      floor: SOAK.quota.fuzzRequests,
      durationMs: loadMs,
      samples: run.samples.fuzzCases,
      firstFaultAt,
    }),
  ];
  const chaosShort = CHAOS_KINDS.filter((k) => chaos.filter((e) => e.kind === k).length < TARGETS.chaosEachKind);
  if (chaosShort.length) failures.push(`chaos ran fewer than ${TARGETS.chaosEachKind} times: ${chaosShort.join(', ')}`);

  const judged = verdict(failures, load);
  const byKind = (kind: string) => chaos.filter((e) => e.kind === kind);
  const redeliveries = chaos.flatMap((e) => (e.redeliveryMs === undefined ? [] : [e.redeliveryMs]));
  const report = {
    topology: topology.name,
    swapsLost: books.swapsLost,
    swapsLate: books.swapsLate,
    doubleExecutes: books.doubleExecutes,
    passed: judged.passed,
    failures: judged.failures,
    /** Floors missed on a machine that kept its own unfaulted pace through the faults: reported, not failed. */
    notes: judged.notes,
    /** Load against this machine's capacity measured in the run (the rate before the first fault), with the absolute rates. */
    load,
    nodes: topology,
    startedAt: run.startedAt.toISOString(),
    durationSeconds: round(run.durationMs / 1000),
    configuredSeconds: SOAK.seconds,
    processes: {
      web: topology.web,
      worker: topology.worker,
      webServer: 'lean API server (npm run start:api)',
      simulators: 1,
      crashes: crashes.map((c) => ({ ...c, at: new Date(c.at).toISOString() })),
    },
    requests: {
      total: Object.values(rec.byClass).reduce((a, b) => a + b, 0),
      byClass: rec.byClass,
      byStatus: rec.byStatus,
    },
    latencyByEndpoint: rec.latencies(),
    serverErrors: {
      total: rec.serverErrorsDuringOutage + rec.serverErrorsOutsideOutage,
      duringOutage: rec.serverErrorsDuringOutage,
      outsideOutage: rec.serverErrorsOutsideOutage,
      outsideOutageSamples: rec.serverErrorSamples,
      // Seconds into the run: set beside the upstream fault windows and the breaker log lines.
      outsideOutageByKind: [...rec.serverErrorsOutsideByKind.entries()]
        .sort((a, b) => b[1].count - a[1].count)
        .map(([kind, seen]) => ({
          kind,
          count: seen.count,
          firstAtS: Math.round((seen.firstAt - run.startedAt.getTime()) / 1000),
          lastAtS: Math.round((seen.lastAt - run.startedAt.getTime()) / 1000),
        })),
      readinessProbe503: rec.probeUnavailable,
      noAnswerDuringOutage: rec.noAnswerDuringOutage,
      noAnswerOutsideOutage: rec.noAnswerOutsideOutage,
      noAnswerOutsideOutageSamples: rec.noAnswerOutsideOutageSamples,
    },
    outages: rec.outages.map((o, i) => ({
      kind: o.kind,
      at: new Date(o.startedAt).toISOString(),
      recoverMs: chaos[i]?.recoverMs ?? null,
      ...(chaos[i]?.replacementStartMs !== undefined ? { replacementStartMs: chaos[i]?.replacementStartMs } : {}),
      requestsDuring: o.requestsDuring,
      unavailable503During: o.unavailableDuring,
      unavailable503WithoutRetryAfter: o.unavailableWithoutRetryAfter,
      serverErrorsDuring: o.serverErrorsDuring,
      byStatus: o.byStatus,
      ...(o.noAnswerSamples.length ? { noAnswerSamples: o.noAnswerSamples } : {}),
      ...(chaos[i]?.writeOutageMs !== undefined
        ? {
            promotedMs: chaos[i]?.promotedMs,
            writeOutageMs: chaos[i]?.writeOutageMs,
            rejoinedMs: chaos[i]?.rejoinedMs,
          }
        : {}),
      ...(chaos[i]?.note ? { note: chaos[i]?.note } : {}),
    })),
    unavailable503DuringOutages: rec.unavailableDuringOutage,
    chaos: Object.fromEntries(
      CHAOS_KINDS.map((k) => [k, { count: byKind(k).length, recoverMs: byKind(k).map((e) => e.recoverMs ?? null) }]),
    ),
    postgresFailover: failovers.map((f) => ({
      promotedMs: f.promotedMs ?? null,
      writeOutageMs: f.writeOutageMs ?? null,
      rejoinedMs: f.rejoinedMs ?? null,
    })),
    deploys,
    acknowledgedExecutes: books.acknowledgedExecutes,
    synchronousCommit: run.synchronousCommit ?? null,
    workerRedelivery: {
      /** Until the stalled check had handed every job the dead worker held back to the queue (what the lock and check settings bound). */
      handedBackMs: chaos.filter((e) => e.kind === 'kill-worker').map((e) => e.handedBackMs ?? null),
      /** Until a worker had taken each of them again (also bounded by the survivor's backlog). */
      afterSigkillMs: redeliveries,
      jobsHeld: chaos.filter((e) => e.kind === 'kill-worker').map((e) => e.jobsHeld ?? 0),
      replacementStartMs: chaos.filter((e) => e.kind === 'kill-worker').map((e) => e.replacementStartMs ?? null),
    },
    races: {
      target: TARGETS.raceLocks,
      floor: SOAK.quota.raceLocks,
      locksRaced: races.locksRaced,
      locksPerSecond: round(races.locksRaced / SOAK.seconds),
      executesPerLock: SOAK.raceParallel,
      executesSent: races.executesSent,
      statuses: races.statuses,
      violations: races.doubleWins + races.noWinner,
      doubleWins: races.doubleWins,
      noWinnerOutsideOutage: races.noWinner,
      noWinnerDuringOutage: races.noWinnerDuringOutage,
      violationSamples: races.violations.slice(0, 20),
      transactions: books.raceTransactions,
      transactionsLate: books.raceTransactionsLate,
      transactionsUnsettled: books.raceTransactionsUnsettled,
    },
    fuzz: {
      target: TARGETS.fuzzRequests,
      floor: SOAK.quota.fuzzRequests,
      cases: fuzz.cases,
      casesPerSecond: round(fuzz.cases / SOAK.seconds),
      failures: fuzz.failures,
      serverErrorsDuringOutage: fuzz.serverErrorsDuringOutage,
      noAnswer: fuzz.noAnswer,
      unsendable: fuzz.unsendable,
      byStatus: fuzz.byStatus,
      seed: fuzz.seed,
      failureSamples: fuzz.failureSamples,
    },
    swaps: {
      flowsStarted: run.traffic.flowsStarted,
      executed: books.swapsExecuted,
      abandoned: run.traffic.abandoned,
      lost: books.swapsLost,
      lostSamples: books.lostSamples,
      late: books.swapsLate,
      lateSamples: books.lateSamples,
      awaitingDeposit: books.awaitingDeposit,
      statusNotFound: run.traffic.statusNotFound,
      statusNotFoundSamples: run.traffic.statusNotFoundSamples,
      wrongEnding: books.wrongEnding,
      expiredUnfunded: books.expiredUnfunded,
      wrongEndingSamples: books.wrongEndingSamples,
      wrongHashes: books.wrongHashes,
      upstreamFaultWindows: run.traffic.upstreamFaultWindows.map((w) => ({
        provider: w.provider,
        fault: w.fault,
        atS: Math.round((w.at - run.startedAt.getTime()) / 1000),
      })),
      settleWaitMs: books.settleMs,
    },
    statusLagMs: { p50: percentile(books.statusLagMs, 0.5), p95: percentile(books.statusLagMs, 0.95) },
    /** The product's part of the lag: a read answering PENDING after the swap was final (books.ts). */
    staleAnswerMs: {
      p50: percentile(books.staleAnswerMs, 0.5),
      p95: percentile(books.staleAnswerMs, 0.95),
      max: percentile(books.staleAnswerMs, 1),
    },
    executeToFinalMs: { p50: percentile(books.trackingMs, 0.5), p95: percentile(books.trackingMs, 0.95) },
    /** Of the swaps shown a p90 at lock, the share that finished within it, and each provider's median p50 error. */
    routeTimeAccuracy: run.accuracy,
    books: {
      untracked: books.untracked,
      untrackedSamples: books.untrackedSamples,
      timelineGaps: books.timelineGaps,
      timelineSamples: books.timelineSamples,
      rateLimit: books.rateLimit,
      idempotentReplays: books.replays,
    },
    memory,
    driverCpuSeconds: run.driverCpuSeconds,
    /** The issue's figures for a full run, and this run's floors (its share of them; see bench/SOAK.md). */
    targetsMet: {
      raceLocks: races.locksRaced >= TARGETS.raceLocks,
      fuzzRequests: fuzz.cases >= TARGETS.fuzzRequests,
      chaosEachKindTwice: chaosShort.length === 0,
    },
    floorsMet: {
      raceLocks: races.locksRaced >= SOAK.quota.raceLocks,
      fuzzRequests: fuzz.cases >= SOAK.quota.fuzzRequests,
    },
  };
  return report;
}

export function writeReport(report: ReturnType<typeof buildReport>) {
  mkdirSync(new URL('../results/', import.meta.url).pathname, { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
  const lines = [
    `soak: ${report.durationSeconds} s, ${report.requests.total} requests ${JSON.stringify(report.requests.byClass)}`,
    `soak topology: ${report.topology} ${JSON.stringify(report.nodes)}`,
    `  swaps: ${report.swaps.executed} executed, ${report.swapsLost} lost, ${report.swapsLate} late (tracked, settling after the wait), ${report.swaps.wrongEnding} wrong endings`,
    `  races: ${report.races.locksRaced} locks × ${report.races.executesPerLock} (floor ${report.races.floor}; ${report.races.locksPerSecond}/s), ${report.races.violations} violations, ${report.doubleExecutes} double executes`,
    `  fuzz: ${report.fuzz.cases} cases (floor ${report.fuzz.floor}; ${report.fuzz.casesPerSecond}/s), ${report.fuzz.failures} failures`,
    `  5xx: ${report.serverErrors.duringOutage} during outages, ${report.serverErrors.outsideOutage} outside; 503 during outages ${report.unavailable503DuringOutages}`,
    `  chaos: ${report.outages.map((o) => `${o.kind} ${o.recoverMs ?? '—'} ms`).join(', ')}`,
    `  worker SIGKILL: jobs handed back after ${JSON.stringify(report.workerRedelivery.handedBackMs)} ms, all picked up again after ${JSON.stringify(report.workerRedelivery.afterSigkillMs)} ms`,
    `  ${accuracyLine(report.routeTimeAccuracy)}`,
    `  status lag p50/p95: ${report.statusLagMs.p50}/${report.statusLagMs.p95} ms (stale PENDING answers after final p50/p95/max ${report.staleAnswerMs.p50}/${report.staleAnswerMs.p95}/${report.staleAnswerMs.max} ms)`,
    ...(report.postgresFailover.length
      ? [
          `  Postgres failover: write outage ${JSON.stringify(report.postgresFailover.map((f) => f.writeOutageMs))} ms, promoted after ${JSON.stringify(report.postgresFailover.map((f) => f.promotedMs))} ms; acknowledged executes ${report.acknowledgedExecutes.checked} checked, ${report.acknowledgedExecutes.missing} missing`,
        ]
      : []),
    ...report.deploys.map(
      (d, i) =>
        `  deploy ${i + 1}: migration ${d.migration.ms} ms${d.migration.error ? ` FAILED (${d.migration.error})` : ''}; ${d.steps.map((s) => `${s.process} ${s.drainMs === undefined ? '' : `drain ${s.drainMs} + `}stop ${s.stopMs} ms (exit ${s.exit}) + start ${s.startMs} ms`).join(', ')}; streams ${d.streams.opened} open, ${d.streams.endedByServer} ended by the server, ${d.streams.resumed} resumed (slowest answer ${d.streams.slowestAnswerMs} ms), ${d.streams.repeats} repeats`,
    ),
    `  load vs this machine: ${report.load.map((l) => `${l.name} ${l.count} (${l.perSecond}/s; unfaulted ${l.unfaultedPerSecond ?? '—'}/s; ${l.ok ? 'ok' : 'SHORT'})`).join(', ')}`,
    `  memory (RSS MiB start→end, peak; growth after warm-up): ${report.memory.instances
      .map(
        (i) =>
          `${i.process} ${i.rssMiB.start}→${i.rssMiB.end} (${i.rssMiB.peak})${i.growthAfterWarmUp?.rss != null ? ` ${round(i.growthAfterWarmUp.rss * 100)}%${report.memory.judged.includes(i.process) ? '' : ' (not judged)'}` : ''}`,
      )
      .join(', ')}`,
    `  CPU seconds: ${report.memory.instances.map((i) => `${i.process} ${i.cpuSeconds}`).join(', ')}, soak driver ${report.driverCpuSeconds}`,
    `  ${report.passed ? 'PASSED' : `FAILED: ${report.failures.join('; ')}`}`,
    ...(report.notes.length ? [`  notes: ${report.notes.join('; ')}`] : []),
    `  wrote ${RESULTS}`,
  ];
  console.log(lines.join('\n'));
}
