/**
 * An execute holds its lock by a claim whose time is its fencing token. The sweep hands back claims
 * older than EXECUTE_CLAIM_TIMEOUT_MS as a crash's; these tests pin down what an execute answers when
 * that happens to it, when its record is lost on the way, and what a losing execute is told.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../server/config';
import { type AppContext, createAppContext } from '../server/context';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../server/errors';
import { sweep } from '../server/tracking/sweep';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { expectV1Error, firstRow } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';

let t: TestApp;
/** A worker whose sweep takes any claim older than 100 ms for a crash's. */
let hastyWorker: AppContext;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '20000', EXECUTE_DEADLINE_MS: '20000' });
  hastyWorker = createAppContext(parseConfig({ ...t.env, EXECUTE_DEADLINE_MS: '50', EXECUTE_CLAIM_TIMEOUT_MS: '100' }));
});
afterAll(async () => {
  await hastyWorker?.close();
  await t?.stop();
});
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});

const execute = (lockId: string) => t.post('/api/v1/quote/execute', { lockId });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (boundedly) until the Chainflip simulator has been asked to execute `count` times. */
async function chainflipExecutes(count: number) {
  for (let i = 0; i < 200 && t.sims.CHAINFLIP.log.filter((e) => e.kind === 'execute').length < count; i++)
    await sleep(20);
}

async function newLock(body: Record<string, unknown>): Promise<string> {
  const res = await t.post('/api/v1/quote/lock', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.lockId;
}

const lockState = async (lockId: string) =>
  (await firstRow(t.app.sql`select state from locks where id = ${lockId}`)).state;
const transactionsOf = (lockId: string) => t.app.sql`select id from transactions where lock_id = ${lockId}`;

describe('configuration', () => {
  it('refuses a claim timeout no longer than the execute deadline', () => {
    expect(() => parseConfig({ ...t.env, EXECUTE_DEADLINE_MS: '8000', EXECUTE_CLAIM_TIMEOUT_MS: '5000' })).toThrow(
      ConfigError,
    );
    expect(() => parseConfig({ ...t.env, EXECUTE_DEADLINE_MS: '8000', EXECUTE_CLAIM_TIMEOUT_MS: '8000' })).toThrow(
      /EXECUTE_CLAIM_TIMEOUT_MS \(8000\) must be longer than EXECUTE_DEADLINE_MS \(8000\)/,
    );
    expect(
      parseConfig({ ...t.env, EXECUTE_DEADLINE_MS: '8000', EXECUTE_CLAIM_TIMEOUT_MS: '8001' }).executeDeadlineMs,
    ).toBe(8000);
  });
});

describe('an execute whose claim the sweep handed back', () => {
  it('records nothing, answers a retryable 503, and the lock can be executed again', async () => {
    const lockId = await newLock({ ...BTC_TO_ETH, provider: 'CHAINFLIP' });
    t.sims.CHAINFLIP.configure({ faults: { execute: 'slow' }, slowMs: 3000 });
    const inFlight = execute(lockId);
    await chainflipExecutes(1);
    expect(await lockState(lockId)).toBe('executing');
    await sleep(150);
    // The provider is still answering: the claim now looks like a crash's to the hasty sweep.
    const report = await sweep(hastyWorker, hastyWorker.tracking as never);
    expect(report.releasedClaims).toBe(1);

    const answer = await inFlight;
    expectV1Error(answer, 503, 'SERVICE_UNAVAILABLE', 'lockId');
    expect(answer.body.error.message).toMatch(/recorded nothing; execute the lock again/);
    expect(answer.headers.get('retry-after')).toBe(DEPENDENCY_RETRY_AFTER_SECONDS);
    expect(await transactionsOf(lockId)).toHaveLength(0);
    expect(await lockState(lockId)).toBe('locked');

    t.sims.CHAINFLIP.configure({ faults: { execute: 'none' } });
    const retried = await execute(lockId);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(await transactionsOf(lockId)).toHaveLength(1);
  });

  it('does not record under a claim another execute took after the hand-back', async () => {
    // Started first: the second execute must reach the provider while the first still waits on it.
    const sibling = await startSibling(t);
    try {
      const lockId = await newLock({ ...BTC_TO_ETH, provider: 'CHAINFLIP' });
      t.sims.CHAINFLIP.configure({ faults: { execute: 'slow' }, slowMs: 3000 });
      const first = execute(lockId);
      await chainflipExecutes(1);
      await sleep(150);
      expect((await sweep(hastyWorker, hastyWorker.tracking as never)).releasedClaims).toBe(1);
      // Another web process claims the handed-back lock and is still with the provider when the first returns.
      t.sims.CHAINFLIP.configure({ slowMs: 6000 });
      const second = fetch(`${sibling.baseUrl}/api/v1/quote/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lockId }),
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
      await chainflipExecutes(2);

      expectV1Error(await first, 503, 'SERVICE_UNAVAILABLE', 'lockId');
      expect(await transactionsOf(lockId)).toHaveLength(0);
      expect(await lockState(lockId)).toBe('executing');
      const won = await second;
      expect(won.status, JSON.stringify(won.body)).toBe(200);
      const recorded = await transactionsOf(lockId);
      expect(recorded.map((r) => r.id)).toEqual([won.body.data.transaction.id]);
    } finally {
      await sibling.stop();
    }
  });
});

describe('an execute whose record is lost on the way', () => {
  it('hands its claim back at once instead of leaving it for the sweep', async () => {
    const lockId = await newLock({ ...ETH_TO_BTC, provider: 'RELAY' });
    // What a database restart sends mid-statement, for this lock's record only.
    await t.app.sql.unsafe(`create or replace function fail_record() returns trigger language plpgsql as $$
      begin
        if new.lock_id = '${lockId}' then
          raise exception 'terminating connection due to administrator command' using errcode = '57P01';
        end if;
        return new;
      end $$`);
    await t.app.sql.unsafe(
      'create trigger fail_record before insert on transactions for each row execute function fail_record()',
    );
    try {
      expectV1Error(await execute(lockId), 503, 'SERVICE_UNAVAILABLE');
      expect(await lockState(lockId)).toBe('locked');
      expect(await transactionsOf(lockId)).toHaveLength(0);
    } finally {
      await t.app.sql.unsafe('drop trigger fail_record on transactions');
    }
    const retried = await execute(lockId);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
  });
});

describe('a losing execute', () => {
  it('is told whether the lock expired, was used, or is being executed', async () => {
    const expired = await newLock({ ...ETH_TO_BTC, provider: 'RELAY' });
    await t.app.sql`update locks set expires_at = now() - interval '1 second' where id = ${expired}`;
    const expiredAnswer = await execute(expired);
    expectV1Error(expiredAnswer, 409, 'QUOTE_EXPIRED', 'lockId');
    expect(expiredAnswer.body.error.message).toMatch(/has expired/);

    const used = await newLock({ ...ETH_TO_BTC, provider: 'RELAY' });
    expect((await execute(used)).status).toBe(200);
    const usedAnswer = await execute(used);
    expectV1Error(usedAnswer, 409, 'QUOTE_EXPIRED', 'lockId');
    expect(usedAnswer.body.error.message).toMatch(/already executed/);

    const held = await newLock({ ...BTC_TO_ETH, provider: 'CHAINFLIP' });
    t.sims.CHAINFLIP.configure({ faults: { execute: 'slow' }, slowMs: 2000 });
    const holder = execute(held);
    await chainflipExecutes(1);
    const heldAnswer = await execute(held);
    expectV1Error(heldAnswer, 409, 'QUOTE_EXPIRED', 'lockId');
    expect(heldAnswer.body.error.message).toMatch(/being executed by another request/);
    expect((await holder).status).toBe(200);

    // Held by another process: the claim is in the database only.
    const elsewhere = await newLock({ ...ETH_TO_BTC, provider: 'RELAY' });
    await t.app.sql`update locks set state = 'executing', claimed_at = now() where id = ${elsewhere}`;
    const elsewhereAnswer = await execute(elsewhere);
    expectV1Error(elsewhereAnswer, 409, 'QUOTE_EXPIRED', 'lockId');
    expect(elsewhereAnswer.body.error.message).toMatch(/being executed by another request/);

    // Its expiry passing meanwhile does not make it expired while an execute holds it.
    await t.app.sql`update locks set expires_at = now() - interval '1 second' where id = ${elsewhere}`;
    expect((await execute(elsewhere)).body.error.message).toMatch(/being executed by another request/);
  });
});
