/**
 * 7. Webhook isolation: a healthy endpoint's p99 delivery latency (fan-out job enqueued → request at
 * its receiver) while 10 other endpoints hang and swaps arrive for them ÷ the same load with those 10
 * answering at once; also ÷ the same swaps with no other endpoint registered at all. Each phase: the
 * healthy endpoint answers 3 swaps first, then a burst of 30 swaps for the others' owners, then for
 * 10 s every 100 ms one swap of the healthy endpoint's owner and one of theirs. The real worker binary
 * (workers/main.ts, default webhook settings) in a child process, receivers in this one, all on
 * loopback. Phases alternate (absent, answering, hanging, twice); each starts a fresh worker on an
 * empty Redis prefix with new endpoints, so no phase inherits another's pauses or queued jobs.
 *
 * And a new endpoint's first delivery (#45 item 5): 5 owners with 5 new endpoints each that hang (as
 * self sign-up allows), swaps for them from the start and one every tick; once their attempts hold
 * the shared lane, every FIRST_EVERY_MS a swap of a new owner whose one endpoint has never been
 * attempted. Its p99 (fan-out job enqueued → the request at its receiver) must stay within 2 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { newWebhookEndpointId } from '../server/ids';
import { listen } from '../server/lifecycle';
import { createWorkerRedis } from '../server/redis';
import { createQueue, enqueue } from '../server/tracking/queues';
import { freePort } from '../test/support/processes';
import { childEnv, WEBHOOKS_PREFIX } from './config';
import { insertSyntheticTransactions } from './fixtures';
import { type Bench, clearRedis } from './setup';

const SECTION = 'webhooks';
const ROOT = new URL('..', import.meta.url).pathname;
const TAG = 'wh';
const HANGING_ENDPOINTS = 10;
const OWNERS = { healthy: 'bench_wh_healthy', stallA: 'bench_wh_stall_a', stallB: 'bench_wh_stall_b' } as const;
/** The review's burst: 30 swaps for the hanging endpoints' owners before anything else. */
const BURST = 30;
const TICK_MS = 100;
const WARM_UP = 3;

/** The first-delivery phase: owners with 5 new hanging endpoints each, and how often a new honest owner's swap comes. */
const HANGING_OWNERS = 5;
const ENDPOINTS_PER_OWNER = 5;
const FIRST_EVERY_MS = 500;
const FIRST_DELIVERY_TARGET_MS = 2_000;
const hangingOwner = (n: number) => `bench_wh_hang_${n}`;
const newOwner = (phase: number, n: number) => `bench_wh_new_${phase}_${n}`;

/** What the ten other endpoints do in a phase; `absent`: they are not registered at all. */
type Mode = 'absent' | 'answering' | 'hanging';

const txId = (i: number) => `tx_${TAG}${String(i).padStart(22 - TAG.length, '0')}`;
const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

async function readBody(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The healthy endpoint: answers 204 at once and notes when each swap's `transaction.created` arrived. */
async function startHealthyReceiver() {
  const arrived = new Map<string, number>();
  const server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as { type: string; data: { id: string } };
    if (body.type === 'transaction.created' && !arrived.has(body.data.id)) arrived.set(body.data.id, performance.now());
    response.writeHead(204).end();
  });
  const port = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}/healthy`, arrived, stop: () => closeServer(server, new Set()) };
}

/** The ten other endpoints (one path each): in `hanging` mode every request is read and never answered. */
async function startOtherReceivers() {
  let mode: 'answering' | 'hanging' = 'answering';
  const sockets = new Set<Socket>();
  let held = 0;
  const server = createServer(async (request, response: ServerResponse) => {
    await readBody(request);
    if (mode === 'answering') response.writeHead(204).end();
    else held++;
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    urlFor: (i: number) => `http://127.0.0.1:${port}/other-${i}`,
    setMode: (next: 'answering' | 'hanging') => {
      mode = next;
      held = 0;
    },
    held: () => held,
    /** Ends every connection: the worker's attempts to them fail at once, so it can stop. */
    release: () => {
      for (const socket of sockets) socket.destroy();
    },
    stop: () => closeServer(server, sockets),
  };
}

function closeServer(server: ReturnType<typeof createServer>, sockets: Set<Socket>) {
  for (const socket of sockets) socket.destroy();
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

async function seed(b: Bench, poolSize: number) {
  for (const [name, id] of Object.entries(OWNERS)) {
    await b.sql`insert into auth_user (id, name, email, role) values (${id}, ${name}, ${`${id}@bench.switchyard.test`}, 'affiliate')`;
  }
  await insertSyntheticTransactions(b.sql, {
    tag: TAG,
    count: poolSize,
    status: 'SUCCESS',
    assets: b.assets,
    wallet: `'0x${'9'.repeat(40)}'`,
    createdAt: 'now()',
  });
}

/** Fresh endpoints for a phase: the healthy one, and (unless absent) five others for each of the two other owners. */
async function replaceEndpoints(b: Bench, mode: Mode, healthyUrl: string, otherUrl: (i: number) => string) {
  await b.sql`delete from webhook_endpoints where owner_id in ${b.sql(Object.values(OWNERS))}`;
  const secret = () => `whsec_${randomBytes(24).toString('base64')}`;
  const rows = [
    { id: newWebhookEndpointId(), owner_id: OWNERS.healthy, scope: 'affiliate', url: healthyUrl, secret: secret() },
    ...Array.from({ length: mode === 'absent' ? 0 : HANGING_ENDPOINTS }, (_, i) => ({
      id: newWebhookEndpointId(),
      owner_id: i % 2 ? OWNERS.stallB : OWNERS.stallA,
      scope: 'affiliate',
      url: otherUrl(i),
      secret: secret(),
    })),
  ];
  await b.sql`insert into webhook_endpoints ${b.sql(rows)}`;
}

interface WorkerChild {
  process: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/** The product's worker binary on the bench's webhook prefix, ready once its health probe answers 200. */
async function startWorker(env: Record<string, string>): Promise<WorkerChild> {
  const healthPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
    cwd: ROOT,
    env: childEnv({ ...env, WORKER_HEALTH_PORT: String(healthPort) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 20));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const done = await Promise.race([exited.then(() => true), sleep(25_000).then(() => false)]);
    if (!done) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`http://127.0.0.1:${healthPort}/`, { signal: AbortSignal.timeout(1000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return { process: child, output, stop };
    await sleep(200);
  }
  await stop();
  throw new Error(`webhook worker not ready: ${output.join(' | ')}`);
}

/**
 * A phase's worker (the product's binary on the bench's webhook prefix) and the swaps sent to it: each
 * measured one noted with when its fan-out job was enqueued.
 */
async function startPhaseWorker(b: Bench, take: (owner: string) => Promise<string>) {
  const worker = await startWorker({
    ...b.env,
    REDIS_PREFIX: WEBHOOKS_PREFIX,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Nothing else of the bench database is this prefix's to poll or sweep.
    SWEEP_GRACE_MS: '3600000',
  });
  const connection = createWorkerRedis(b.settings.redisUrl);
  const queue = createQueue('webhooks', connection, WEBHOOKS_PREFIX);
  const sentAt = new Map<string, number>();
  const swap = async (owner: string, measured: boolean) => {
    const id = await take(owner);
    if (measured) sentAt.set(id, performance.now());
    await enqueue(queue, 'webhooks.fan-out', { transactionId: id, created: true });
    return id;
  };
  const stop = async () => {
    await worker.stop();
    await queue.close();
    connection.disconnect();
  };
  return { sentAt, swap, stop };
}

/**
 * Waits up to 30 s for every measured swap's delivery; one that never came counts as arriving when the
 * bench stopped waiting (a lower bound).
 */
async function latencies(sentAt: Map<string, number>, arrived: Map<string, number>) {
  const until = Date.now() + 30_000;
  while ([...sentAt.keys()].some((id) => !arrived.has(id)) && Date.now() < until) await sleep(50);
  const gaveUp = performance.now();
  const latencyOf = (id: string, at: number) => (arrived.get(id) ?? gaveUp) - at;
  const latenciesMs = [...sentAt].map(([id, at]) => latencyOf(id, at));
  const missing = [...sentAt.keys()].filter((id) => !arrived.has(id)).length;
  return { latenciesMs, missing, latencyOf };
}

interface Receivers {
  healthy: Awaited<ReturnType<typeof startHealthyReceiver>>;
  others: Awaited<ReturnType<typeof startOtherReceivers>>;
}

interface PhaseResult {
  mode: Mode;
  latenciesMs: number[];
  missing: number;
  heldAtEnd: number;
  /** The slowest deliveries, and when in the phase their swap came (ms after the burst). */
  slowest: { sentAtMs: number; latencyMs: number }[];
}

/** Transactions of the pool, handed out in order: each is attributed to its owner as it is used. */
function txPool(b: Bench) {
  let next = 1;
  return async (owner: string) => {
    const id = txId(next++);
    await b.sql`update transactions set referral_owner_id = ${owner} where id = ${id}`;
    return id;
  };
}

async function runPhase(
  b: Bench,
  mode: Mode,
  take: (owner: string) => Promise<string>,
  receivers: Receivers,
  durationMs: number,
): Promise<PhaseResult> {
  await clearRedis(b.redis, [WEBHOOKS_PREFIX]);
  await replaceEndpoints(b, mode, receivers.healthy.url, receivers.others.urlFor);
  receivers.others.setMode(mode === 'hanging' ? 'hanging' : 'answering');
  const { sentAt, swap, stop } = await startPhaseWorker(b, take);
  try {
    // The healthy endpoint has answered before the others start to hang, as a working receiver has.
    for (let i = 0; i < WARM_UP; i++) {
      const id = await swap(OWNERS.healthy, false);
      const until = Date.now() + 15_000;
      while (!receivers.healthy.arrived.has(id) && Date.now() < until) await sleep(20);
    }
    for (let i = 0; i < BURST; i++) await swap(i % 2 ? OWNERS.stallB : OWNERS.stallA, false);
    const ticks = Math.round(durationMs / TICK_MS);
    const started = performance.now();
    for (let tick = 0; tick < ticks; tick++) {
      await swap(OWNERS.healthy, true);
      await swap(tick % 2 ? OWNERS.stallB : OWNERS.stallA, false);
      const due = started + (tick + 1) * TICK_MS;
      await sleep(Math.max(0, due - performance.now()));
    }
    const { latenciesMs, missing, latencyOf } = await latencies(sentAt, receivers.healthy.arrived);
    const slowest = [...sentAt]
      .map(([id, at]) => ({ sentAtMs: Math.round(at - started), latencyMs: Math.round(latencyOf(id, at)) }))
      .sort((x, y) => y.latencyMs - x.latencyMs)
      .slice(0, 5);
    return { mode, latenciesMs, missing, heldAtEnd: receivers.others.held(), slowest };
  } finally {
    receivers.others.release();
    await stop();
  }
}

interface FirstDeliveryResult {
  latenciesMs: number[];
  missing: number;
  heldAtEnd: number;
}

/** Owners' rows, made as the phase needs them (a self sign-up each). */
async function addOwners(b: Bench, ids: string[]) {
  const rows = ids.map((id) => ({ id, name: id, email: `${id}@bench.switchyard.test`, role: 'affiliate' }));
  await b.sql`insert into auth_user ${b.sql(rows)} on conflict (id) do nothing`;
}

const endpointRow = (ownerId: string, url: string) => ({
  id: newWebhookEndpointId(),
  owner_id: ownerId,
  scope: 'affiliate',
  url,
  secret: `whsec_${randomBytes(24).toString('base64')}`,
});

/**
 * New honest owners' first deliveries while HANGING_OWNERS owners' new endpoints hang: none of those
 * endpoints has been attempted before the phase, nor has any honest one.
 */
async function runFirstDeliveryPhase(
  b: Bench,
  phase: number,
  take: (owner: string) => Promise<string>,
  receivers: Receivers,
  durationMs: number,
): Promise<FirstDeliveryResult> {
  const samples = Math.max(1, Math.round(durationMs / FIRST_EVERY_MS));
  const hostile = Array.from({ length: HANGING_OWNERS }, (_, n) => hangingOwner(n));
  const honest = Array.from({ length: samples }, (_, n) => newOwner(phase, n));
  await clearRedis(b.redis, [WEBHOOKS_PREFIX]);
  await b.sql`delete from webhook_endpoints where owner_id in ${b.sql(hostile)}`;
  await addOwners(b, [...hostile, ...honest]);
  await b.sql`insert into webhook_endpoints ${b.sql([
    ...hostile.flatMap((owner, n) =>
      Array.from({ length: ENDPOINTS_PER_OWNER }, (_, i) =>
        endpointRow(owner, receivers.others.urlFor(n * ENDPOINTS_PER_OWNER + i)),
      ),
    ),
    ...honest.map((owner) => endpointRow(owner, receivers.healthy.url)),
  ])}`;
  receivers.others.setMode('hanging');
  const { sentAt, swap, stop } = await startPhaseWorker(b, take);
  try {
    for (const owner of hostile) await swap(owner, false);
    const until = Date.now() + 15_000;
    while (receivers.others.held() < HANGING_OWNERS && Date.now() < until) await sleep(20);
    const started = performance.now();
    for (const [tick, owner] of honest.entries()) {
      await swap(owner, true);
      await swap(hostile[tick % hostile.length] as string, false);
      await sleep(Math.max(0, started + (tick + 1) * FIRST_EVERY_MS - performance.now()));
    }
    const { latenciesMs, missing } = await latencies(sentAt, receivers.healthy.arrived);
    return { latenciesMs, missing, heldAtEnd: receivers.others.held() };
  } finally {
    receivers.others.release();
    await stop();
    await b.sql`delete from webhook_endpoints where owner_id in ${b.sql([...hostile, ...honest])}`;
  }
}

export async function webhooksSection(b: Bench): Promise<void> {
  const durationMs = b.ms(10, 3000);
  const rounds = 2;
  const perPhase = WARM_UP + BURST + 2 * Math.round(durationMs / TICK_MS);
  const firstPhaseSwaps = HANGING_OWNERS + 2 * Math.round(durationMs / FIRST_EVERY_MS) + 2;
  await seed(b, perPhase * rounds * 3 + firstPhaseSwaps * rounds + 10);
  const take = txPool(b);
  const receivers = { healthy: await startHealthyReceiver(), others: await startOtherReceivers() };
  const phases: PhaseResult[] = [];
  const firsts: FirstDeliveryResult[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const first = await runFirstDeliveryPhase(b, round, take, receivers, durationMs);
      const sortedFirst = [...first.latenciesMs].sort((x, y) => x - y);
      console.log(
        `    round ${round + 1}/${rounds} first deliveries, 25 new endpoints of 5 owners hanging: ${sortedFirst.length - first.missing} arrived, p50 ${percentile(sortedFirst, 0.5).toFixed(1)} ms, p99 ${percentile(sortedFirst, 0.99).toFixed(1)} ms, max ${(sortedFirst.at(-1) ?? 0).toFixed(1)} ms${first.missing ? `, ${first.missing} missing` : ''}, ${first.heldAtEnd} requests held`,
      );
      firsts.push(first);
      for (const mode of ['absent', 'answering', 'hanging'] as const) {
        const phase = await runPhase(b, mode, take, receivers, durationMs);
        const sorted = [...phase.latenciesMs].sort((x, y) => x - y);
        console.log(
          `    round ${round + 1}/${rounds} ${mode}: ${sorted.length - phase.missing} deliveries, p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms${phase.missing ? `, ${phase.missing} missing` : ''}${mode === 'hanging' ? `, ${phase.heldAtEnd} requests held` : ''}`,
        );
        phases.push(phase);
      }
    }
  } finally {
    await receivers.healthy.stop();
    await receivers.others.stop();
    await clearRedis(b.redis, [WEBHOOKS_PREFIX]);
    await b.sql`delete from webhook_endpoints where owner_id in ${b.sql(Object.values(OWNERS))}`;
  }

  const all = (mode: Mode) =>
    phases
      .filter((p) => p.mode === mode)
      .flatMap((p) => p.latenciesMs)
      .sort((x, y) => x - y);
  const hanging = all('hanging');
  const answering = all('answering');
  const absent = all('absent');
  const missing = [...phases, ...firsts].reduce((n, p) => n + p.missing, 0);
  if (missing)
    b.report.violation(
      `${missing} deliveries to healthy webhook endpoints never arrived (counted as arriving when the bench stopped waiting)`,
    );
  b.report.details.webhooks = {
    durationMs,
    tickMs: TICK_MS,
    burst: BURST,
    hangingEndpoints: HANGING_ENDPOINTS,
    firstDeliveries: firsts.map((f) => {
      const sorted = [...f.latenciesMs].sort((x, y) => x - y);
      return {
        deliveries: sorted.length,
        missing: f.missing,
        heldAtEnd: f.heldAtEnd,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        maxMs: sorted.at(-1) ?? 0,
      };
    }),
    phases: phases.map((p) => {
      const sorted = [...p.latenciesMs].sort((x, y) => x - y);
      const { mode, missing, heldAtEnd, slowest } = p;
      return {
        mode,
        deliveries: sorted.length,
        missing,
        heldAtEnd,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        slowest,
      };
    }),
  };
  const row = { section: SECTION, unit: 'ms' };
  const p99 = 'webhook delivery p99, healthy endpoint, 10 endpoints hanging';
  b.report.add({
    ...row,
    name: p99,
    value: percentile(hanging, 0.99),
    baseline: percentile(answering, 0.99),
    baselineName: 'the 10 answering',
  });
  b.report.add({
    ...row,
    name: p99,
    value: percentile(hanging, 0.99),
    baseline: percentile(absent, 0.99),
    baselineName: 'no other endpoints',
  });
  const firstLatencies = firsts.flatMap((f) => f.latenciesMs).sort((x, y) => x - y);
  b.report.add({
    ...row,
    name: 'webhook first delivery p99, new endpoint, 25 new endpoints of 5 owners hanging',
    value: percentile(firstLatencies, 0.99),
    target: FIRST_DELIVERY_TARGET_MS,
    note: `${firstLatencies.length} first deliveries, one every ${FIRST_EVERY_MS} ms; p50 ${Math.round(percentile(firstLatencies, 0.5))} ms`,
  });
  b.report.add({
    ...row,
    name: 'webhook delivery p50, healthy endpoint, 10 endpoints hanging',
    value: percentile(hanging, 0.5),
    baseline: percentile(answering, 0.5),
    baselineName: 'the 10 answering',
  });
}
