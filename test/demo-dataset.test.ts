import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../server/db';
import { demoLoadRefusal, holdsDemoSwaps } from '../server/demo-data';
import { executeResultSchema } from '../server/schemas/responses';
import { fanOutChange } from '../server/webhooks/fan-out';
import { startTestApp, type TestApp } from './support/app';
import { callerFor, signedInUser } from './support/dashboard';
import { cloneTemplate, testDatabaseName } from './support/databases';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';
import { childEnv, exitWithin } from './support/processes';
import { startReceiver } from './support/webhook-receivers';

/**
 * `npm run db:demo` loads made-up traffic: it never goes into a database of real users, never into
 * production, and its made-up swaps are never polled against a live provider nor sent to an endpoint.
 */
const ROOT = new URL('..', import.meta.url).pathname;

let t: TestApp;

async function run(entry: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  try {
    return { code: await exitWithin(child, 120_000), stderr: stderr.trim() };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

const demo = (env: Record<string, string> = {}) =>
  run('drizzle/seed/demo.ts', ['--swaps', '300'], { ...t.env, LOG_LEVEL: 'silent', ...env });

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

describe('npm run db:demo', () => {
  it('refuses NODE_ENV=production outright, before touching the database', async () => {
    const refused = await demo({ NODE_ENV: 'production' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'demo data: NODE_ENV is production; the demo dataset never goes into a production database',
    );
    expect(await holdsDemoSwaps(t.app.sql)).toBe(false);
  }, 130_000);

  it('loads into an empty database, then refuses it: it has swaps, users and referral codes now', async () => {
    expect(await demoLoadRefusal(t.app.sql)).toBeUndefined();
    expect((await demo()).code).toBe(0);
    expect(await holdsDemoSwaps(t.app.sql)).toBe(true);
    // Its refunds say what came back (#46 item 5); some swaps settled on another amount than quoted.
    const refunds = await t.app.sql`select id from transactions where status = 'REFUND' limit 3`;
    for (const { id } of refunds) {
      const { refund, srcAmount } = (await t.json(`/api/v1/transaction/status?transactionId=${id}`)).body.data
        .transaction;
      expect(Number(refund.amount)).toBeGreaterThan(0);
      expect(Number(refund.amount)).toBeLessThan(Number(srcAmount));
    }
    const [settled] = await t.app.sql`
      select id from transactions where status = 'SUCCESS' and tracking_context->'settlement' ? 'quotedDstAmount' limit 1`;
    const quoted = (await t.json(`/api/v1/transaction/status?transactionId=${settled?.id}`)).body.data.transaction;
    expect(Number(quoted.quotedDstAmount)).toBeGreaterThan(Number(quoted.dstAmount));
    // Each swap keeps what execute answered, in the shape execute answers: a pending one's /tx page shows
    // the deposit to send or the wallet call to sign, one of each mode the providers use.
    const rows = await t.app.sql<{ id: string; execution: unknown }[]>`select id, execution from transactions`;
    const answers = rows.map((row) => ({ id: row.id, parsed: executeResultSchema.safeParse(row.execution) }));
    expect(answers.filter((answer) => !answer.parsed.success).map((answer) => answer.id)).toEqual([]);
    const modes = new Map<string, string>();
    for (const { id, parsed } of answers) {
      const mode = parsed.data?.providerResult.execution;
      if (mode && !modes.has(mode)) modes.set(mode, id);
    }
    expect([...modes.keys()].sort()).toEqual(['deposit-address', 'deposit-channel', 'evm-calldata']);
    for (const [mode, id] of modes) {
      const served = (await t.json(`/api/v1/transaction/execution?transactionId=${id}`)).body.data.execution;
      expect(served.providerResult.execution).toBe(mode);
      expect(served.transaction.id).toBe(id);
      expect(served.exec.meta.executionMode).toBe(mode);
    }
    // THORChain's memo names the destination as THORChain does (`=:ETH.ETH:<recipient>`).
    const codes = (
      await t.app.sql<{ code: string }[]>`
      select provider_ids ->> 'thorchain' as code from chains where provider_ids ? 'thorchain'`
    ).map((row) => row.code);
    const memos = answers
      .map((answer) => answer.parsed.data?.providerResult.depositMemo)
      .filter((memo): memo is string => memo !== undefined);
    expect(memos.length).toBeGreaterThan(0);
    for (const memo of memos) expect(codes).toContain(/^=:([A-Z]+)\./.exec(memo)?.[1]);
    // Its swaps are inserted settled, past the settle trigger: the loader records their route times (#48).
    // (300 swaps leave no route the minimum sample for pending swaps' expected-by times: test/route-times-backfill.)
    const [times] = await t.app.sql<
      { swaps: number }[]
    >`select coalesce(sum(swaps), 0)::int as swaps from route_time_daily`;
    expect(times?.swaps).toBeGreaterThan(0);
    const again = await demo();
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'demo data: this database already has swaps, users, referral codes; the demo dataset goes into an empty one only',
    );
  }, 250_000);

  it('refuses a database with users, referral codes or webhook endpoints of its own, though it has no swap', async () => {
    const name = testDatabaseName('db', `demo${randomBytes(4).toString('hex')}`);
    const fresh = createDb({
      url: await cloneTemplate(inject('templateDatabase'), name),
      poolMax: 1,
      connectTimeoutMs: 5000,
    });
    const { sql } = fresh;
    try {
      expect(await demoLoadRefusal(sql)).toBeUndefined();
      await sql`insert into referral_codes (code, owner_id) values ('OWN-1', 'usr_own')`;
      expect(await demoLoadRefusal(sql)).toMatch(/already has referral codes;/);
      await sql`insert into auth_user (id, name, email, email_verified, role, created_at, updated_at)
                values ('usr_own', 'Own', 'own@example.test', true, 'admin', now(), now())`;
      await sql`insert into webhook_endpoints (id, owner_id, scope, url, secret)
                values ('whe_own', 'usr_own', 'all', 'https://example.test/hook', 'whsec_x')`;
      await sql`delete from referral_codes`;
      expect(await demoLoadRefusal(sql)).toMatch(/already has users, webhook endpoints;/);
    } finally {
      await fresh.close();
    }
  });
});

describe('the demo dataset’s swaps', () => {
  it('a worker with live providers refuses to start on a database holding them, in one line', async () => {
    const refused = await run('workers/main.ts', [], {
      ...t.env,
      PROVIDERS_MODE: 'live',
      WORKER_HEALTH_PORT: '0',
      LOG_LEVEL: 'silent',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toEqual([
      expect.stringMatching(/^\[worker\] this database holds the demo dataset \(npm run db:demo\)/),
    ]);
  }, 130_000);

  it('are sent to no webhook endpoint, while a real swap’s change is', async () => {
    const admin = await signedInUser(t.app, 'admin');
    const receiver = await startReceiver();
    try {
      const { endpoint } = await (await callerFor(t.app, admin.headers)).webhooks.create({
        url: receiver.url,
        scope: 'all',
      });
      const [made] = await t.app.sql<{ id: string }[]>`
        select id from transactions where id like 'tx_demo%' order by created_at desc limit 1`;
      expect(made).toBeDefined();
      expect(await fanOutChange(t.app, { transactionId: made?.id as string, created: false })).toMatchObject({
        messages: 0,
      });
      const real = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id;
      const fanned = await fanOutChange(t.app, { transactionId: real, created: true });
      expect(fanned.queued.map((m) => m.endpointId)).toEqual([endpoint.id]);
    } finally {
      await receiver.stop();
    }
  });
});
