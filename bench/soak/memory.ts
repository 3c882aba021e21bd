/** Each product process's memory and CPU time over the run, from the lines `memory-probe.ts` wrote. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SOAK } from './config';
import { memoryDir } from './processes';
import { round } from './recorder';

interface Sample {
  at: number;
  pid: number;
  rss: number;
  heapUsed: number;
  /** User + system CPU time since the process started. */
  cpuMicros: number;
}

const MIB = 1024 * 1024;
/** The web and worker processes, the product's own; their memory is what the growth bound is about. */
const PRODUCT_PROCESS = /^(web|worker)-\d+$/;
const mib = (bytes: number) => round(bytes / MIB);

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor(sorted.length / 2)] as number) : 0;
}

/**
 * Per process instance (a name and a pid: a process restarted by the chaos is a new instance): RSS and
 * heap every 30 s of the load window, start, end and peak. For an instance that lived through the
 * whole load window, the growth after warm-up: the median of its last minute over the median of the
 * minute after the warm-up (the first SOAK.memoryWarmUpShare of the window). And the CPU seconds it had
 * used at its last sample (a killed instance's up to one sample before the kill): where the machine's time went.
 */
export function memoryReport(loadStart: number, loadEnd: number) {
  const files = existsSync(memoryDir) ? readdirSync(memoryDir).filter((f) => f.endsWith('.jsonl')) : [];
  const warmUpEnd = loadStart + (loadEnd - loadStart) * SOAK.memoryWarmUpShare;
  const instances = files.flatMap((file) => {
    const name = file.replace(/\.jsonl$/, '');
    const samples = readFileSync(`${memoryDir}/${file}`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Sample);
    const pids = [...new Set(samples.map((s) => s.pid))];
    return pids.map((pid) => {
      const own = samples.filter((s) => s.pid === pid);
      const inLoad = own.filter((s) => s.at >= loadStart && s.at <= loadEnd);
      const first = own[0] as Sample;
      const last = own.at(-1) as Sample;
      const wholeRun = first.at <= loadStart + 30_000 && last.at >= loadEnd - 30_000;
      const window = (from: number, to: number, of: 'rss' | 'heapUsed') =>
        median(inLoad.filter((s) => s.at >= from && s.at < to).map((s) => s[of]));
      const growth = (of: 'rss' | 'heapUsed') => {
        const after = window(warmUpEnd, warmUpEnd + 60_000, of);
        const end = window(loadEnd - 60_000, loadEnd + 1, of);
        return after && end ? round(end / after - 1, 3) : null;
      };
      let nextAt = 0;
      const series = inLoad
        .filter((s) => {
          if (s.at < nextAt) return false;
          nextAt = s.at + 30_000;
          return true;
        })
        .map((s) => ({ t: round((s.at - loadStart) / 1000, 0), rssMiB: mib(s.rss), heapUsedMiB: mib(s.heapUsed) }));
      return {
        process: name,
        pid,
        wholeRun,
        startedAt: new Date(first.at).toISOString(),
        rssMiB: { start: mib(first.rss), end: mib(last.rss), peak: mib(Math.max(...own.map((s) => s.rss))) },
        heapUsedMiB: {
          start: mib(first.heapUsed),
          end: mib(last.heapUsed),
          peak: mib(Math.max(...own.map((s) => s.heapUsed))),
        },
        growthAfterWarmUp: wholeRun ? { rss: growth('rss'), heapUsed: growth('heapUsed') } : null,
        cpuSeconds: round(last.cpuMicros / 1e6),
        series,
      };
    });
  });
  // The product's processes are judged. The simulators stand in for the providers and hold every swap sent
  // to them, as a provider does, up to SIMULATOR_MEMORY of a kind: over an hour they grow with the swaps
  // (the one-hour run of 2026-11-27 16:45, bench/SOAK.md), which says nothing of the product's memory.
  const judged = instances.filter((i) => i.growthAfterWarmUp?.rss != null && PRODUCT_PROCESS.test(i.process));
  const tooMuch = judged.filter((i) => (i.growthAfterWarmUp?.rss ?? 0) > SOAK.memoryGrowthMax);
  return {
    sampleEveryMs: SOAK.memorySampleMs,
    warmUpSeconds: round(((loadEnd - loadStart) * SOAK.memoryWarmUpShare) / 1000, 0),
    growthMax: SOAK.memoryGrowthMax,
    judged: [...new Set(judged.map((i) => i.process))],
    growthOk: tooMuch.length === 0,
    grewTooMuch: tooMuch.map(
      (i) => `${i.process} (pid ${i.pid}) RSS +${round((i.growthAfterWarmUp?.rss ?? 0) * 100)}%`,
    ),
    instances,
  };
}
