/**
 * Fuzzing at volume: requests generated from the OpenAPI document (the fuzz test's generator), sent
 * from many loopback client addresses to both web processes. Zero 5xx outside an outage window, and
 * every error in its interface's envelope.
 */
import fc from 'fast-check';
import { API_ROUTES } from '../../server/http/routes';
import { buildOpenApiDocument } from '../../server/openapi/document';
import { envelopeProblem, FUZZ_VALID_BODIES, type FuzzRequest, fuzzRequests } from '../../test/support/fuzz-requests';
import type { SoakResponse } from './http';
import { type Pace, pacedLanes } from './pace';
import type { Recorder } from './recorder';

export interface FuzzStats {
  cases: number;
  failures: number;
  /** 5xx answered inside an outage window (counted, not failed). */
  serverErrorsDuringOutage: number;
  noAnswer: number;
  /** Requests Node's client refused to send (header values it will not put on the wire). */
  unsendable: number;
  byStatus: Record<string, number>;
  failureSamples: string[];
  seed: number;
}

export const newFuzzStats = (seed = Date.now() % 2 ** 31): FuzzStats => ({
  cases: 0,
  failures: 0,
  serverErrorsDuringOutage: 0,
  noAnswer: 0,
  unsendable: 0,
  byStatus: {},
  failureSamples: [],
  seed,
});

export async function runFuzz(
  stats: FuzzStats,
  rec: Recorder,
  webBases: string[],
  o: { pace: Pace; deadline: number; concurrency: number },
): Promise<FuzzStats> {
  const seed = stats.seed;
  const arbitrary = fuzzRequests(buildOpenApiDocument(API_ROUTES), FUZZ_VALID_BODIES);
  let batch = 0;
  let queue: FuzzRequest[] = [];
  const nextCase = (): FuzzRequest => {
    if (queue.length === 0) queue = fc.sample(arbitrary, { numRuns: 500, seed: seed + batch++ });
    return queue.pop() as FuzzRequest;
  };
  let sent = 0;
  /** One fuzz case; false when nobody answered (no case). */
  const fuzzCase = async (laneIndex: number): Promise<boolean> => {
    // A case Node's client refuses to send is no case: draw another (a few times at most).
    for (let draw = 0; draw < 10; draw++) {
      sent += 1;
      const req = nextCase();
      const startedAt = Date.now();
      const res = await rec.request({
        ...req,
        base: webBases[sent % webBases.length] as string,
        from: `127.0.1.${((sent + laneIndex) % 200) + 1}`,
        timeoutMs: 20_000,
      });
      if (res.status === -1) {
        stats.unsendable += 1;
        continue;
      }
      return judge(req, res, startedAt);
    }
    return true;
  };
  const judge = (req: FuzzRequest, res: SoakResponse, startedAt: number): boolean => {
    stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
    if (res.status === 0) {
      // Nobody answering (a web process down) is no fuzz case.
      stats.noAnswer += 1;
      return false;
    }
    stats.cases += 1;
    const duringOutage = rec.outageAt(startedAt, Date.now()) !== undefined;
    if (res.status >= 500 && duringOutage) {
      stats.serverErrorsDuringOutage += 1;
      return true;
    }
    const problem = envelopeProblem(req.path, res.status, res.headers, res.text);
    if (problem) {
      stats.failures += 1;
      if (stats.failureSamples.length < 20)
        stats.failureSamples.push(
          `${req.method} ${req.path.slice(0, 120)} body=${(req.body ?? '').slice(0, 80)}: ${problem}`,
        );
    }
    return true;
  };
  await pacedLanes(o.pace, o.deadline, o.concurrency, fuzzCase);
  return stats;
}
