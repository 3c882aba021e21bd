import { readdirSync, readFileSync } from 'node:fs';
/**
 * The parent side of the load generator: one long-lived child process (load-worker.ts) so the
 * generator never shares an event loop with the server it measures. On this 2-core machine the
 * generator and the server under test still share the cores; ratios taken in the same run cancel
 * most of that out.
 */
import type { LatencySummary } from './histogram';
import { type ChildHandle, startChild } from './procs';

export interface LoadSpec {
  label: string;
  host: string;
  port: number;
  /** Raw HTTP/1.1 requests (see `httpRequest`), sent in rotation. */
  requests: string[];
  connections: number;
  durationMs: number;
  warmupMs: number;
  maxRequests: number;
  timeoutMs: number;
}

export interface LoadResult {
  label: string;
  /** The server's CPU (user + system) per request over the round, warm-up included, when its pid was given. */
  cpuUsPerRequest?: number;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  rps: number;
  latency: LatencySummary;
  errorSample?: string;
}

export interface RoundsSpec {
  label: string;
  host: string;
  port: number;
  /** One raw request per round, sent on `parallel` connections at once. */
  rounds: string[];
  parallel: number;
  maxDurationMs: number;
  timeoutMs: number;
}

export interface RoundsResult {
  label: string;
  rounds: number;
  /** 2xx answers in each round. */
  successesPerRound: number[];
  statuses: Record<string, number>;
  elapsedMs: number;
  roundsPerSecond: number;
  latency: LatencySummary;
  errorSample?: string;
}

export type WorkerMessage =
  | { type: 'load'; id: number; spec: LoadSpec }
  | { type: 'rounds'; id: number; spec: RoundsSpec }
  | { type: 'exit'; id: number };

/** A raw keep-alive HTTP/1.1 request. */
export function httpRequest(
  method: 'GET' | 'POST',
  port: number,
  path: string,
  body?: unknown,
  host = '127.0.0.1',
): string {
  const json = body === undefined ? undefined : JSON.stringify(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${host}:${port}`,
    'Connection: keep-alive',
    'Accept: application/json',
    ...(json === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(json)}`]),
  ];
  return `${head.join('\r\n')}\r\n\r\n${json ?? ''}`;
}

export class LoadGenerator {
  private nextId = 1;

  private constructor(private readonly child: ChildHandle) {}

  static async start(): Promise<LoadGenerator> {
    const child = await startChild('load', new URL('./load-worker.ts', import.meta.url).pathname, [], {
      env: { ...process.env, NODE_ENV: 'production' },
    });
    return new LoadGenerator(child);
  }

  run(spec: Omit<LoadSpec, 'host' | 'timeoutMs'> & { host?: string; timeoutMs?: number }): Promise<LoadResult> {
    const full: LoadSpec = { host: '127.0.0.1', timeoutMs: 10_000, ...spec };
    const id = this.nextId++;
    return this.child.request<LoadResult>(
      { type: 'load', id, spec: full },
      id,
      full.warmupMs + full.durationMs + full.timeoutMs + 15_000,
    );
  }

  rounds(spec: Omit<RoundsSpec, 'host' | 'timeoutMs'> & { host?: string; timeoutMs?: number }): Promise<RoundsResult> {
    const full: RoundsSpec = { host: '127.0.0.1', timeoutMs: 10_000, ...spec };
    const id = this.nextId++;
    return this.child.request<RoundsResult>(
      { type: 'rounds', id, spec: full },
      id,
      full.maxDurationMs + full.timeoutMs + 15_000,
    );
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}

export interface Aggregate {
  label: string;
  rounds: LoadResult[];
  /** Median of the rounds' throughput (robust to a round disturbed by other work on the machine). */
  rps: number;
  /** All rounds' requests over all rounds' measured time. */
  meanRps: number;
  /** Medians of the rounds' percentiles. */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  errorSample?: string;
}

/**
 * The median of round k's throughput ÷ round k's baseline: interleaved rounds measured moments apart,
 * so a machine that slows down mid-run moves both sides of each pair alike.
 */
export const pairedRatio = (value: Aggregate, baseline: Aggregate) =>
  median(value.rounds.map((r, k) => r.rps / (baseline.rounds[k]?.rps || Number.NaN)).filter(Number.isFinite));

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export function aggregate(label: string, rounds: LoadResult[]): Aggregate {
  const statuses: Record<string, number> = {};
  for (const r of rounds) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const requests = rounds.reduce((s, r) => s + r.requests, 0);
  const elapsed = rounds.reduce((s, r) => s + r.elapsedMs, 0);
  return {
    label,
    rounds,
    rps: median(rounds.map((r) => r.rps)),
    meanRps: elapsed ? (requests / elapsed) * 1000 : 0,
    p50Ms: median(rounds.map((r) => r.latency.p50Ms)),
    p99Ms: median(rounds.map((r) => r.latency.p99Ms)),
    requests,
    errors: rounds.reduce((s, r) => s + r.errors, 0),
    statuses,
    errorSample: rounds.find((r) => r.errorSample)?.errorSample,
  };
}

type RunSpec = Parameters<LoadGenerator['run']>[0] & { pid?: number };

/**
 * CPU time so far (user + system), in microseconds, of process `pid` and of every process in the group it
 * leads (Next runs under flock and sh); undefined where /proc cannot tell.
 */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let ticks = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command's closing parenthesis: state, ppid, pgrp, … utime (14th of the line), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) !== pid && Number(fields[2]) !== pid) continue;
    found = true;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  // Clock ticks are 100 a second on Linux.
  return found ? ticks * 10_000 : undefined;
}

/**
 * Sets `result.cpuUsPerRequest` from the server's CPU before and after a run of `runMs` (warm-up included), where
 * /proc told both; requests served are estimated from the counted rate, as over the whole run.
 */
function recordCpuPerRequest(result: LoadResult, before: number | undefined, after: number | undefined, runMs: number) {
  const served = result.rps * (runMs / 1000);
  if (before !== undefined && after !== undefined && served > 0) result.cpuUsPerRequest = (after - before) / served;
}

/** A/B/… rounds: every round runs each spec once, in an order rotated per round, so drift hits all alike. */
export async function interleaved(
  load: LoadGenerator,
  specs: RunSpec[],
  rounds: number,
  log: (line: string) => void = console.log,
): Promise<Record<string, Aggregate>> {
  const results = new Map<string, LoadResult[]>(specs.map((s) => [s.label, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < specs.length; k++) {
      const spec = specs[(k + round) % specs.length] as RunSpec;
      const { pid, ...run } = spec;
      const cpuBefore = cpuMicros(pid);
      const result = await load.run(run);
      const cpuAfter = cpuMicros(pid);
      recordCpuPerRequest(result, cpuBefore, cpuAfter, run.durationMs + run.warmupMs);
      results.get(spec.label)?.push(result);
      log(
        `    round ${round + 1}/${rounds} ${spec.label}: ${Math.round(result.rps)} req/s, p50 ${result.latency.p50Ms} ms, p99 ${result.latency.p99Ms} ms${result.cpuUsPerRequest ? `, ${result.cpuUsPerRequest.toFixed(1)} µs CPU/req` : ''}${result.errors ? `, ${result.errors} errors` : ''}`,
      );
    }
  }
  return Object.fromEntries([...results].map(([label, r]) => [label, aggregate(label, r)]));
}

/** A server asked GET for each of `paths` in turn. */
export interface GetTarget {
  label: string;
  port: number;
  /** The server's process, whose CPU per request the rounds then report. */
  pid?: number;
  paths: string[];
}

/** A round of GETs against `t`, `connections` at a time. */
const getSpec = (t: GetTarget, connections: number, durationMs: number, warmupMs: number) => ({
  label: t.label,
  port: t.port,
  requests: t.paths.map((p) => httpRequest('GET', t.port, p)),
  connections,
  durationMs,
  warmupMs,
  maxRequests: 5_000_000,
});

/**
 * Every target warmed once (Next loads route modules and JITs on first use), then five interleaved rounds
 * that count. `ms` scales the bench's seconds (Bench.ms).
 */
export async function warmedGetRounds(
  load: LoadGenerator,
  targets: GetTarget[],
  connections: number,
  ms: (seconds: number, minMs?: number) => number,
  /** Rounds shorter than this say more about JIT and GC than about the server (the gate's small scale). */
  minRoundMs = 500,
): Promise<Record<string, Aggregate>> {
  const spec = (t: GetTarget, durationMs: number, warmupMs: number) => ({
    ...getSpec(t, connections, durationMs, warmupMs),
    pid: t.pid,
  });
  await interleaved(
    load,
    targets.map((t) => spec(t, ms(1.5, minRoundMs), 0)),
    1,
    () => {},
  );
  return interleaved(
    load,
    targets.map((t) => spec(t, ms(3, minRoundMs), ms(0.5, 250))),
    5,
  );
}

/** Two servers to load at the same time: `value` is read as a share of `baseline`; pairs of one `group` are read as one. */
export interface SideBySidePair {
  group: string;
  value: GetTarget;
  baseline: GetTarget;
}

export interface SideBySide {
  /** Each round's value ÷ baseline, over all the group's pairs. */
  ratios: number[];
  /** Their median. */
  ratio: number;
  value: Aggregate;
  baseline: Aggregate;
}

/**
 * Pairs of servers loaded at the same time, each on its own `connections`, round after round (the pairs in
 * an order rotated per round), after every server has been warmed alone for `warmMs` (a server that had
 * served more before its pair, Next above all, read faster than its twin). Both servers of a pair meet the
 * same moment of a shared machine (a neighbour's load, the scheduler, the other processes), which moved one
 * server's rounds by up to 2× here when servers took turns; run together, they compete for the same cores,
 * and the ratio of their rates is the ratio of what a request costs each. A group's figure is the median of
 * its rounds' ratios.
 */
export async function sideBySideRounds(
  load: LoadGenerator,
  pairs: SideBySidePair[],
  {
    connections,
    durationMs,
    warmupMs,
    warmMs,
    rounds,
  }: { connections: number; durationMs: number; warmupMs: number; warmMs: number; rounds: number },
  log: (line: string) => void = console.log,
): Promise<Record<string, SideBySide>> {
  const run = (t: GetTarget, duration: number, warmup: number) => load.run(getSpec(t, connections, duration, warmup));
  const servers = new Map(pairs.flatMap((p) => [p.value, p.baseline]).map((t) => [t.label, t]));
  for (const server of servers.values()) await run(server, warmMs, 0);
  const results = new Map<string, { ratios: number[]; value: LoadResult[]; baseline: LoadResult[] }>();
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < pairs.length; k++) {
      const pair = pairs[(k + round) % pairs.length] as SideBySidePair;
      const cpuBefore = { value: cpuMicros(pair.value.pid), baseline: cpuMicros(pair.baseline.pid) };
      const [value, baseline] = await Promise.all([
        run(pair.value, durationMs, warmupMs),
        run(pair.baseline, durationMs, warmupMs),
      ]);
      recordCpuPerRequest(value, cpuBefore.value, cpuMicros(pair.value.pid), durationMs + warmupMs);
      recordCpuPerRequest(baseline, cpuBefore.baseline, cpuMicros(pair.baseline.pid), durationMs + warmupMs);
      const ratio = value.rps / baseline.rps;
      const group = results.get(pair.group) ?? { ratios: [], value: [], baseline: [] };
      group.ratios.push(ratio);
      group.value.push(value);
      group.baseline.push(baseline);
      results.set(pair.group, group);
      log(
        `    round ${round + 1}/${rounds} ${pair.value.label} ${Math.round(value.rps)} req/s beside ${pair.baseline.label} ${Math.round(baseline.rps)} req/s: ${ratio.toFixed(3)}${value.cpuUsPerRequest && baseline.cpuUsPerRequest ? ` (CPU/req ${value.cpuUsPerRequest.toFixed(0)} µs, ${baseline.cpuUsPerRequest.toFixed(0)} µs: ${(baseline.cpuUsPerRequest / value.cpuUsPerRequest).toFixed(3)})` : ''}${value.errors + baseline.errors ? `, ${value.errors + baseline.errors} errors` : ''}`,
      );
    }
  }
  return Object.fromEntries(
    [...results].map(([group, r]) => [
      group,
      {
        ratios: r.ratios,
        ratio: median(r.ratios),
        value: aggregate(`${group}: value`, r.value),
        baseline: aggregate(`${group}: baseline`, r.baseline),
      },
    ]),
  );
}

/** Statuses other than the expected ones, as a short note (empty when there are none). */
export function unexpected(agg: Aggregate, expected: number[]): string {
  const odd = Object.entries(agg.statuses).filter(([s]) => !expected.includes(Number(s)));
  if (!odd.length && !agg.errors) return '';
  const parts = odd.map(([s, n]) => `${n}× ${s}`);
  if (agg.errors) parts.push(`${agg.errors} transport errors`);
  return `${agg.label}: ${parts.join(', ')}${agg.errorSample ? ` (e.g. ${agg.errorSample.slice(0, 160)})` : ''}`;
}
