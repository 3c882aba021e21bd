import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase, migrateDatabase } from '../../drizzle/migrate';
import { seedCatalog } from '../../drizzle/seed/seed';
import { parseConfig } from '../../server/config';
import { type AppContext, createAppContext } from '../../server/context';
import { createDb } from '../../server/db';
import { createApiServer } from '../../server/http/node-adapter';
import { listen } from '../../server/lifecycle';
import { type Simulators, simulatorEnv, startSimulators, stopSimulators } from '../../server/providers/simulators';
import { sweep } from '../../server/tracking/sweep';
import { BTC_TO_ETH, ETH_TO_BTC } from '../support/fixtures';
import { httpOk, spawnEntry, waitUntil } from '../support/processes';
import {
  faultPostgresUrl,
  faultRedisUrl,
  initPostgres,
  startPostgres,
  startRedis,
  stopPostgres,
  stopRedis,
} from './servers';

let sims: Simulators;
let env: Record<string, string>;
let app: AppContext;
let server: Server;
let base: string;

const post = (path: string, body: unknown, target = base) =>
  fetch(`${target}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  initPostgres();
  startPostgres();
  await startRedis();
  const dbUrl = faultPostgresUrl('switchyard');
  await ensureDatabase(dbUrl);
  await migrateDatabase(dbUrl);
  const seedHandle = createDb({ url: dbUrl, poolMax: 1, connectTimeoutMs: 5000 });
  await seedCatalog(seedHandle.db);
  await seedHandle.close();
  sims = await startSimulators({ defaults: { autoDepositMs: 0 } });
  env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: dbUrl,
    REDIS_URL: faultRedisUrl,
    REDIS_PREFIX: 'faults',
    CATALOG_CACHE_MS: '0',
    PROVIDER_DEADLINE_MS: '1000',
    EXECUTE_DEADLINE_MS: '1500',
    EXECUTE_CLAIM_TIMEOUT_MS: '2000',
    RATE_LIMIT_CATALOG: '100000',
    RATE_LIMIT_QUOTE: '100000',
    RATE_LIMIT_EXECUTE: '100000',
    RATE_LIMIT_TRANSACTIONS: '100000',
    ...simulatorEnv(sims),
  };
  app = createAppContext(parseConfig(env));
  server = createApiServer(app);
  base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await app?.close().catch(() => {});
  if (sims) await stopSimulators(sims);
  stopRedis();
  stopPostgres('fast');
});

describe('Redis restarted during a burst of quotes and executes', () => {
  it('keeps answering correctly: no 500, each lock executed at most once, tracking restored by the sweep', async () => {
    const locks: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await post('/api/v1/quote/lock', { ...BTC_TO_ETH, provider: 'CHAINFLIP' });
      expect(res.status).toBe(200);
      locks.push((await res.json()).data.lockId);
    }
    const statuses: number[] = [];
    let redisStopped = false;
    let redisRestarted = false;
    let nextLock = 0;
    // The outage spans rounds 5 to 20, however long a round takes on this machine.
    for (let round = 0; round < 40; round++) {
      if (!redisStopped && round === 5) {
        stopRedis();
        redisStopped = true;
      }
      if (redisStopped && !redisRestarted && round === 20) {
        await startRedis();
        redisRestarted = true;
      }
      const batch = [post('/api/v1/quote', ETH_TO_BTC), post('/api/v1/quote', BTC_TO_ETH)];
      if (round % 4 === 0 && nextLock < locks.length) {
        const lockId = locks[nextLock++];
        batch.push(post('/api/v1/quote/execute', { lockId }), post('/api/v1/quote/execute', { lockId }));
      }
      for (const res of await Promise.all(batch)) {
        statuses.push(res.status);
        const body = await res.json();
        expect(res.headers.get('x-request-id')).toMatch(/^req_/);
        if (res.status >= 400) expect(body.error.code).toEqual(expect.any(String));
      }
      await sleep(50);
    }
    expect(redisStopped && redisRestarted).toBe(true);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(statuses.length / 2);

    const perLock =
      await app.sql`select l.id, l.state, count(t.id)::int as txs from locks l left join transactions t on t.lock_id = l.id
      where l.id in ${app.sql(locks)} group by l.id, l.state`;
    for (const row of perLock) {
      expect(row.txs).toBeLessThanOrEqual(1);
      expect(row.state === 'used').toBe(row.txs === 1);
    }
    await app.sql`update transactions set next_poll_at = now() - interval '5 minutes' where status = 'PENDING'`;
    await sleep(300);
    const report = await sweep(
      { ...app, config: { ...app.config, worker: { ...app.config.worker, sweepGraceMs: 0 } } },
      app.tracking as never,
    );
    const pending = await app.sql`select count(*)::int as n from transactions where status = 'PENDING'`;
    expect(report.rescheduled).toBe(pending[0]?.n);
  });
});

describe('Postgres restarted during reads', () => {
  it('answers 503 within a second while it is down, and recovers by itself', async () => {
    expect((await fetch(`${base}/api/v1/swap/chains`)).status).toBe(200);
    stopPostgres('immediate');
    const down: { status: number; ms: number; code: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      const res = await fetch(`${base}/api/v1/swap/chains?page=${i + 1}`);
      const body = await res.json();
      down.push({ status: res.status, ms: performance.now() - started, code: body.error?.code });
    }
    const ready = await fetch(`${base}/api/health/ready`);
    expect(ready.status).toBe(503);
    for (const d of down) {
      expect(d).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(d.ms).toBeLessThan(1000);
    }
    startPostgres();
    let recovered = false;
    for (let i = 0; i < 50 && !recovered; i++) {
      recovered = (await fetch(`${base}/api/v1/swap/chains`)).status === 200;
      if (!recovered) await sleep(200);
    }
    expect(recovered).toBe(true);
    expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
  });
});

describe('web process SIGKILLed mid-execute', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('leaves no lock claimed without its transaction after recovery', async () => {
    const port = 3900 + Math.floor(Math.random() * 90);
    sims.CHAINFLIP.reset();
    // The child never sweeps: its claim timeout only has to outlast its deadline.
    child = spawnEntry('server/http/lean-server.ts', {
      ...env,
      API_PORT: String(port),
      EXECUTE_DEADLINE_MS: '20000',
      EXECUTE_CLAIM_TIMEOUT_MS: '30000',
    });
    const childBase = `http://127.0.0.1:${port}`;
    expect(await waitUntil(httpOk(`${childBase}/api/health`))).toBe(true);
    const locked = await post('/api/v1/quote/lock', { ...BTC_TO_ETH, provider: 'CHAINFLIP' }, childBase);
    const { lockId } = (await locked.json()).data;
    sims.CHAINFLIP.configure({ faults: { execute: 'slow' }, slowMs: 10_000 });
    const inFlight = post('/api/v1/quote/execute', { lockId }, childBase).catch((error) => error);
    for (let i = 0; i < 100 && !sims.CHAINFLIP.log.some((e) => e.kind === 'execute'); i++) await sleep(50);
    child?.kill('SIGKILL');
    await inFlight;
    sims.CHAINFLIP.configure({ faults: { execute: 'none' } });

    const stuck = await app.sql`select state from locks where id = ${lockId}`;
    expect(stuck[0]?.state).toBe('executing');
    await sleep(2100);
    const report = await sweep(app, app.tracking as never);
    expect(report.releasedClaims).toBeGreaterThanOrEqual(1);
    const orphans =
      await app.sql`select id from locks where state = 'executing' and not exists (select 1 from transactions t where t.lock_id = locks.id)`;
    expect(orphans).toEqual([]);
    const retried = await post('/api/v1/quote/execute', { lockId });
    expect(retried.status).toBe(200);
  });
});
