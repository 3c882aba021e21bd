/**
 * The `deploy` fault: a release rolled through the running product under load, as README "Running in
 * production" tells an operator to. First an expand migration (its own folder under
 * bench/soak/migrations, never drizzle/migrations) is applied with the product's runner while the old
 * processes serve; then web-1, web-2, worker-1 and worker-2 are replaced one at a time. A web is taken
 * out of the clients' rotation first (as a load balancer does once readiness fails), its open requests
 * are let finish, then it gets SIGTERM: it ends its status streams (clients reconnect elsewhere with
 * Last-Event-ID) and answers what is in flight before it exits. A worker gets SIGTERM and closes its
 * BullMQ workers, which finish or hand back the jobs they hold. The replacement runs the same source
 * tree (the product processes run from source under tsx; there is no separate build to swap).
 */
import { request } from 'node:http';
import { migrateDatabase } from '../../drizzle/migrate';
import { inFlight } from './http';
import { sleep, until } from './poll';
import { databaseUrl, type Product, type ProductProcess } from './processes';
import type { Traffic } from './traffic';

export interface DeployStep {
  process: string;
  /** A web: how long its open requests took to finish once it was out of the rotation. */
  drainMs?: number;
  /** From SIGTERM until it exited, and how ('0': it drained and stopped by itself). */
  stopMs: number;
  exit: string | undefined;
  /** Until its replacement answered ready. */
  startMs: number;
}

export interface StreamCheck {
  /** Status streams open on a web when it was stopped. */
  opened: number;
  /** Ended by the server cleanly (told to reconnect), not cut. */
  endedByServer: number;
  /** Reconnected to a web in the rotation with Last-Event-ID and answered 200. */
  resumed: number;
  /** Events the reconnected stream sent that the client had already seen. */
  repeats: number;
  /** The longest a reconnect waited for its answer's headers (a web just back in the rotation answers slowly at first). */
  slowestAnswerMs: number;
  problems: string[];
}

export interface DeployOutcome {
  migration: { folder: string; ms: number; error?: string };
  steps: DeployStep[];
  streams: StreamCheck;
}

/** How long a stopped process may take to drain before it is killed: past the product's SHUTDOWN_TIMEOUT_MS (20 s). */
const STOP_GRACE_MS = 30_000;
/** A load balancer's connection-draining limit: past it the web is stopped with whatever is still open. */
const DRAIN_LIMIT_MS = 10_000;
const STREAMS_PER_WEB = 3;
/** How long a resumed stream is read for repeats, once it has answered. */
const RESUMED_READ_MS = 3_000;
/**
 * How long a reconnect may wait for its answer: a web just back in the rotation loads the stream's code on
 * its first request, which on a busy 2-core machine took over 3 s (a client's EventSource waits as long).
 */
const RESUME_ANSWER_MS = 20_000;

const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs: number) =>
  (await until(check, timeoutMs, 50)) !== undefined;

const ready = (base: string) =>
  fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status === 200);

/** One status stream read as an EventSource does: the ids it saw, and how it ended. */
function openStream(base: string, transactionId: string, lastEventId?: string) {
  const ids: string[] = [];
  let status = 0;
  let close = () => {};
  const ended = new Promise<'end' | 'error'>((resolve) => {
    const req = request(
      `${base}/api/v1/transaction/stream?transactionId=${transactionId}`,
      {
        agent: false,
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      },
      (res) => {
        status = res.statusCode ?? 0;
        let buffered = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          const blocks = buffered.split('\n\n');
          buffered = blocks.pop() ?? '';
          for (const block of blocks) {
            const id = /^id: (.*)$/m.exec(block)?.[1];
            if (id) ids.push(id);
          }
        });
        res.on('end', () => resolve('end'));
        res.on('error', () => resolve('error'));
        res.on('aborted', () => resolve('error'));
      },
    );
    req.on('error', () => resolve('error'));
    req.end();
    close = () => req.destroy();
  });
  return { ids, ended, status: () => status, close: () => close() };
}

export class Deployer {
  private round = 0;

  constructor(
    private readonly product: Product,
    private readonly traffic?: Traffic,
  ) {}

  async deploy(): Promise<DeployOutcome> {
    this.round += 1;
    const folder = new URL(`./migrations/deploy-${Math.min(this.round, 2)}`, import.meta.url).pathname;
    const outcome: DeployOutcome = {
      migration: { folder: folder.replace(/^.*\/bench\//, 'bench/'), ms: 0 },
      steps: [],
      streams: { opened: 0, endedByServer: 0, resumed: 0, repeats: 0, slowestAnswerMs: 0, problems: [] },
    };
    const started = Date.now();
    try {
      await migrateDatabase(databaseUrl, { folder, log: () => {} });
    } catch (error) {
      outcome.migration.error = (error as Error).message;
    }
    outcome.migration.ms = Date.now() - started;
    for (const web of this.product.webs) outcome.steps.push(await this.replaceWeb(web, outcome.streams));
    for (const worker of this.product.workers) outcome.steps.push(await this.replace(worker));
    return outcome;
  }

  private async replace(process: ProductProcess, drainMs?: number): Promise<DeployStep> {
    const stopping = Date.now();
    const exit = await process.stop(STOP_GRACE_MS);
    const stopMs = Date.now() - stopping;
    const starting = Date.now();
    await process.start();
    return { process: process.name, drainMs, stopMs, exit, startMs: Date.now() - starting };
  }

  private async replaceWeb(web: ProductProcess, streams: StreamCheck): Promise<DeployStep> {
    const { webBases, inRotation } = this.product;
    const base = webBases[this.product.webs.indexOf(web)] as string;
    // Streams a client holds on this web: opened before it leaves the rotation, as long-lived connections are.
    const open = this.pendingTransactions().map((id) => ({ id, stream: openStream(base, id) }));
    await waitFor(() => open.every(({ stream }) => stream.ids.length > 0), 3_000);
    streams.opened += open.length;

    const at = inRotation.indexOf(base);
    if (at >= 0) inRotation.splice(at, 1);
    const draining = Date.now();
    await waitFor(() => inFlight(base) === 0, DRAIN_LIMIT_MS);
    const step = await this.replace(web, Date.now() - draining);
    if (!(await waitFor(() => ready(base), 60_000))) step.exit = `${step.exit}; not ready within 60 s`;
    // Back in its place, so the drivers' spread over the webs stays as it was.
    if (at >= 0) inRotation.splice(at, 0, base);

    await Promise.all(open.map(({ id, stream }) => this.resume(id, stream, streams)));
    return step;
  }

  /** A stream cut by the stop reconnects to a web in the rotation and must not be sent what it has seen. */
  private async resume(id: string, stream: ReturnType<typeof openStream>, check: StreamCheck) {
    const how = await Promise.race([stream.ended, sleep(STOP_GRACE_MS).then(() => 'open' as const)]);
    stream.close();
    if (how === 'end') check.endedByServer += 1;
    else check.problems.push(`stream of ${id} ${how === 'open' ? 'still open after the stop' : 'cut (no clean end)'}`);
    const seen = new Set(stream.ids);
    const last = stream.ids.at(-1);
    const reconnected = Date.now();
    const again = openStream(this.product.inRotation[0] as string, id, last);
    const answered = await waitFor(() => again.status() !== 0, RESUME_ANSWER_MS);
    check.slowestAnswerMs = Math.max(check.slowestAnswerMs, Date.now() - reconnected);
    if (answered) await sleep(RESUMED_READ_MS);
    again.close();
    if (again.status() !== 200) {
      const how = answered ? again.status() : `no answer within ${RESUME_ANSWER_MS / 1000} s`;
      check.problems.push(`stream of ${id} resumed with ${how}`);
      return;
    }
    check.resumed += 1;
    const repeated = again.ids.filter((x) => seen.has(x));
    check.repeats += repeated.length;
    if (repeated.length) check.problems.push(`stream of ${id} sent ${repeated.length} seen events again`);
  }

  /** A few swaps still pending, newest first (their streams have changes to come). */
  private pendingTransactions(): string[] {
    const open = (this.traffic?.swaps ?? []).filter((s) => s.transactionId && !s.finalSeenAt);
    return open
      .slice(-STREAMS_PER_WEB)
      .map((s) => s.transactionId as string)
      .reverse();
  }
}
