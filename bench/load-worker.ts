/**
 * The load generator's child process: a small keep-alive HTTP/1.1 client on raw sockets (requests
 * are prepared bytes, responses are framed by Content-Length or chunked encoding and not parsed
 * further), so the generator spends as little of its core as possible. Driven over IPC by load.ts.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Histogram } from './histogram';
import type { LoadResult, LoadSpec, RoundsResult, RoundsSpec, WorkerMessage } from './load';

const CRLF2 = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** What one run (`runLoad`, `runRounds`) keeps of its answers beyond counts; runs may be in flight at once. */
interface RunRecord {
  /** The body of the first response with status >= 500, for the report. */
  errorSample?: string;
}

interface Pending {
  startedAt: number;
  resolve(status: number): void;
  reject(error: Error): void;
}

/** One keep-alive connection with at most one request in flight. */
class Connection {
  private buf: Buffer | null = null;
  private headerEnd = -1;
  private status = 0;
  private contentLength = 0;
  private chunked = false;
  private closeAfter = false;
  private scan = 0;
  private pending: Pending | null = null;
  private dead = false;

  private constructor(
    private readonly socket: Socket,
    private readonly record: RunRecord,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  static open(host: string, port: number, timeoutMs: number, record: RunRecord): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => socket.destroy(new Error('connect timeout')), timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new Connection(socket, record));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  get alive(): boolean {
    return !this.dead;
  }

  get inFlightSince(): number | undefined {
    return this.pending?.startedAt;
  }

  send(payload: Buffer): Promise<number> {
    if (this.dead) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.pending = { startedAt: performance.now(), resolve, reject };
      this.socket.write(payload);
    });
  }

  destroy(): void {
    this.dead = true;
    this.socket.destroy();
  }

  private fail(error: Error) {
    this.dead = true;
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  private onData(chunk: Buffer) {
    this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    this.parse();
  }

  private parse() {
    const buf = this.buf as Buffer;
    if (this.headerEnd < 0) {
      const end = buf.indexOf(CRLF2);
      if (end < 0) return;
      const head = buf.toString('latin1', 0, end).toLowerCase();
      this.headerEnd = end + 4;
      this.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
      this.chunked = /\r\ntransfer-encoding:[^\r]*chunked/.test(head);
      this.closeAfter = /\r\nconnection:\s*close/.test(head);
      this.contentLength = length ? Number(length[1]) : 0;
      this.scan = this.headerEnd;
    }
    if (!this.chunked) {
      if (buf.length - this.headerEnd >= this.contentLength) this.complete(this.headerEnd + this.contentLength);
      return;
    }
    for (;;) {
      const lineEnd = buf.indexOf(CRLF, this.scan);
      if (lineEnd < 0) return;
      const size = Number.parseInt(buf.toString('latin1', this.scan, lineEnd), 16);
      if (size === 0) {
        if (buf.length >= lineEnd + 4) this.complete(lineEnd + 4);
        return;
      }
      const next = lineEnd + 2 + size + 2;
      if (buf.length < next) return;
      this.scan = next;
    }
  }

  private complete(end: number) {
    const buf = this.buf as Buffer;
    if (this.status >= 500 && this.record.errorSample === undefined) {
      this.record.errorSample = `${this.status} ${buf.toString('utf8', this.headerEnd, Math.min(end, this.headerEnd + 300))}`;
    }
    const status = this.status;
    this.buf = end < buf.length ? buf.subarray(end) : null;
    this.headerEnd = -1;
    const pending = this.pending;
    this.pending = null;
    if (this.closeAfter) this.destroy();
    pending?.resolve(status);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Kills requests that outlive the timeout: they count as errors and their connection is replaced. */
function watchTimeouts(connections: () => Iterable<Connection>, timeoutMs: number) {
  const timer = setInterval(() => {
    const now = performance.now();
    for (const c of connections()) {
      const since = c.inFlightSince;
      if (since !== undefined && now - since > timeoutMs) c.destroy();
    }
  }, 50);
  return () => clearInterval(timer);
}

async function openWithRetry(
  spec: { host: string; port: number; timeoutMs: number },
  until: number,
  record: RunRecord,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await Connection.open(spec.host, spec.port, spec.timeoutMs, record);
    } catch (error) {
      if (attempt >= 20 || performance.now() > until) throw error;
      await sleep(50);
    }
  }
}

/** N closed-loop connections for warmup + duration; only responses completed after warmup count. */
async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const record: RunRecord = {};
  const payloads = spec.requests.map((r) => Buffer.from(r));
  const histogram = new Histogram();
  const statuses: Record<string, number> = {};
  const live = new Set<Connection>();
  const started = performance.now();
  const measureFrom = started + spec.warmupMs;
  const stopAt = measureFrom + spec.durationMs;
  let counted = 0;
  let errors = 0;
  let next = 0;
  let lastCompletion = measureFrom;
  const stopWatch = watchTimeouts(() => live, spec.timeoutMs);

  const loop = async () => {
    let conn: Connection | undefined;
    while (performance.now() < stopAt && counted < spec.maxRequests) {
      if (!conn?.alive) {
        if (conn) live.delete(conn);
        try {
          conn = await openWithRetry(spec, stopAt, record);
        } catch {
          errors += 1;
          return;
        }
        live.add(conn);
      }
      const payload = payloads[next++ % payloads.length] as Buffer;
      const t0 = performance.now();
      try {
        const status = await conn.send(payload);
        const t1 = performance.now();
        if (t1 >= measureFrom && t1 <= stopAt) {
          counted += 1;
          statuses[status] = (statuses[status] ?? 0) + 1;
          histogram.record((t1 - t0) * 1000);
          lastCompletion = t1;
        }
      } catch {
        if (performance.now() >= measureFrom) errors += 1;
      }
    }
    conn?.destroy();
  };

  await Promise.all(Array.from({ length: spec.connections }, loop));
  stopWatch();
  for (const c of live) c.destroy();
  const end = counted < spec.maxRequests ? Math.min(stopAt, performance.now()) : lastCompletion;
  const elapsedMs = Math.max(1, end - measureFrom);
  return {
    label: spec.label,
    requests: counted,
    errors,
    statuses,
    elapsedMs: Math.round(elapsedMs),
    rps: (counted / elapsedMs) * 1000,
    latency: histogram.summary(),
    errorSample: record.errorSample,
  };
}

/** Each round sends one request on every one of `parallel` connections at once and waits for all answers. */
async function runRounds(spec: RoundsSpec): Promise<RoundsResult> {
  const record: RunRecord = {};
  const histogram = new Histogram();
  const statuses: Record<string, number> = {};
  const started = performance.now();
  const stopAt = started + spec.maxDurationMs;
  const conns: (Connection | undefined)[] = Array.from({ length: spec.parallel }, () => undefined);
  const stopWatch = watchTimeouts(() => conns.filter((c): c is Connection => !!c), spec.timeoutMs);
  const successes: number[] = [];

  for (const request of spec.rounds) {
    if (performance.now() > stopAt) break;
    const payload = Buffer.from(request);
    for (let i = 0; i < conns.length; i++) {
      if (!conns[i]?.alive) conns[i] = await openWithRetry(spec, stopAt, record);
    }
    const answers = await Promise.all(
      conns.map(async (c) => {
        const t0 = performance.now();
        try {
          const status = await (c as Connection).send(payload);
          histogram.record((performance.now() - t0) * 1000);
          return status;
        } catch {
          return 0;
        }
      }),
    );
    for (const status of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    successes.push(answers.filter((s) => s >= 200 && s < 300).length);
  }
  stopWatch();
  for (const c of conns) c?.destroy();
  const elapsedMs = Math.max(1, performance.now() - started);
  return {
    label: spec.label,
    rounds: successes.length,
    successesPerRound: successes,
    statuses,
    elapsedMs: Math.round(elapsedMs),
    roundsPerSecond: (successes.length / elapsedMs) * 1000,
    latency: histogram.summary(),
    errorSample: record.errorSample,
  };
}

process.on('message', (message: WorkerMessage) => {
  const work =
    message.type === 'load' ? runLoad(message.spec) : message.type === 'rounds' ? runRounds(message.spec) : undefined;
  if (!work) return process.exit(0);
  work.then(
    (result) => process.send?.({ id: message.id, result }),
    (error: Error) => process.send?.({ id: message.id, error: error.message }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
