/**
 * `npm run soak`: the whole product on private ports under swap traffic, execute races and fuzzing
 * while chaos breaks things on a schedule; then the books. SOAK_SECONDS sets the length (600).
 */
import { parseConfig } from '../../server/config';
import { createDb } from '../../server/db';
import { readAccuracy } from './accuracy';
import { checkBooks, rateLimitBurst } from './books';
import { Chaos } from './chaos';
import { SOAK } from './config';
import { newFuzzStats, runFuzz } from './fuzz';
import { closeAgents } from './http';
import { memoryReport } from './memory';
import { Pace } from './pace';
import { databaseUrl, type Product, productEnv, startDataServers, startProduct, stopDataServers } from './processes';
import { newRaceStats, runRaces, templateLock } from './races';
import { Recorder, round } from './recorder';
import { buildReport, writeReport } from './report';
import { synchronousCommitCost } from './sync-cost';
import { Traffic } from './traffic';
import type { Sample } from './verdict';
import { warmUp } from './warm-up';

const cpuSecondsOf = ({ user, system }: NodeJS.CpuUsage) => round((user + system) / 1e6);

async function main() {
  console.log(
    `soak: ${SOAK.seconds} s, ${SOAK.topology} topology; private servers under ${SOAK.root}; ports ${SOAK.ports.base}-${SOAK.ports.base + 999}`,
  );
  await startDataServers();
  let product: Product | undefined;
  const handle = createDb({ url: databaseUrl, poolMax: 4, connectTimeoutMs: 5000 });
  try {
    product = await startProduct();
    const rec = new Recorder();
    const webBases = product.webBases;
    const burstSize = SOAK.rateLimit.catalog + 200;
    let burst429 = await rateLimitBurst(rec, webBases[0] as string, burstSize);
    // Before the load (and off the books' recorder): what waiting for the synchronous standby costs an execute.
    const synchronousCommit =
      SOAK.topology === 'scaled'
        ? await synchronousCommitCost(
            handle.sql,
            webBases[0] as string,
            await templateLock(new Recorder(), webBases[0] as string),
          )
        : undefined;
    if (synchronousCommit) console.log(`soak: synchronous commit cost ${JSON.stringify(synchronousCommit)}`);
    const warm = await warmUp(webBases);
    console.log(`soak: warmed up: every operation once on each web (${warm.requests} requests, ${warm.ms} ms)`);

    const startedAt = new Date();
    const start = Date.now();
    const deadline = start + SOAK.seconds * 1000;
    const paceBy = start + SOAK.seconds * 1000 * SOAK.paceFinishShare;
    const template = await templateLock(rec, webBases[0] as string);
    const traffic = new Traffic(rec, product.inRotation);
    const chaos = new Chaos(product, rec, traffic);
    const raceStats = newRaceStats();
    const fuzzStats = newFuzzStats();
    console.log('soak: load and chaos running');
    const progress = setInterval(() => {
      const s = Math.round((Date.now() - start) / 1000);
      console.log(
        `  ${s} s: ${JSON.stringify(rec.byClass)}; swaps ${traffic.stats.executed}; races ${raceStats.locksRaced}; ` +
          `fuzz ${fuzzStats.cases}; chaos ${chaos.events.map((e) => e.kind).join(',')}`,
      );
    }, 15_000);
    const samples = { raceLocks: [] as Sample[], fuzzCases: [] as Sample[] };
    const sampler = setInterval(() => {
      const at = Date.now() - start;
      samples.raceLocks.push({ at, count: raceStats.locksRaced });
      samples.fuzzCases.push({ at, count: fuzzStats.cases });
    }, 1000);
    const racePace = new Pace(SOAK.quota.raceLocks, start, paceBy);
    const fuzzPace = new Pace(SOAK.quota.fuzzRequests, start, paceBy);
    Pace.share(racePace, fuzzPace);
    const [races, fuzz] = await Promise.all([
      runRaces(raceStats, rec, handle.sql, product.inRotation, {
        template,
        pace: racePace,
        deadline,
        parallel: SOAK.raceParallel,
        racingLocks: SOAK.racingLocks,
      }),
      runFuzz(fuzzStats, rec, product.inRotation, {
        pace: fuzzPace,
        deadline,
        concurrency: SOAK.fuzzConcurrency,
      }),
      traffic.run(deadline, SOAK.swapFlows, SOAK.swapsPerSecond),
      chaos.run(start, deadline),
    ]);
    await chaos.settled();
    clearInterval(progress);
    clearInterval(sampler);
    const durationMs = Date.now() - start;
    console.log('soak: load stopped; settling and checking the books');
    // Wait out the last rate-limit window, then the noisy client's closing burst.
    await new Promise((r) => setTimeout(r, SOAK.rateLimit.windowSeconds * 1000));
    burst429 += await rateLimitBurst(rec, webBases[1] as string, burstSize);
    const books = await checkBooks(handle.sql, rec, traffic, races, burst429);
    const accuracy = await readAccuracy({ sql: handle.sql, config: parseConfig(productEnv) });
    const report = buildReport({
      startedAt,
      durationMs,
      rec,
      traffic: traffic.stats,
      races,
      fuzz,
      chaos: chaos.events,
      books,
      accuracy,
      memory: memoryReport(start, deadline),
      driverCpuSeconds: cpuSecondsOf(process.cpuUsage()),
      samples,
      synchronousCommit,
    });
    writeReport(report);
    process.exitCode = report.passed ? 0 : 1;
  } finally {
    closeAgents();
    await handle.close().catch(() => {});
    await product?.stop().catch(() => {});
    stopDataServers();
  }
}

// Bounded: once the report is out, nothing left open (a client retrying a stopped server) keeps it running.
main()
  .then(() => process.exit())
  .catch((error) => {
    console.error('soak failed to run:', error);
    stopDataServers();
    process.exit(2);
  });
