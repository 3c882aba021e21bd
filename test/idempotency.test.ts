import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { expectV1Error } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '3000', EXECUTE_DEADLINE_MS: '4000' });
});
afterAll(() => t?.stop());
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});

const key = () => `key-${Math.random().toString(36).slice(2)}`;
const withKey = (k: string) => ({ headers: { 'idempotency-key': k } });

describe('Idempotency-Key on lock and execute', () => {
  it('replays the first lock for the same key and body, creating one lock', async () => {
    const k = key();
    const body = { ...ETH_TO_BTC, provider: 'RELAY' };
    const first = await t.post('/api/v1/quote/lock', body, withKey(k));
    const second = await t.post('/api/v1/quote/lock', body, withKey(k));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const [{ count }] = (await t.app
      .sql`select count(*)::int as count from locks where id = ${first.body.data.lockId}`) as any;
    expect(count).toBe(1);
    expect(t.sims.RELAY.log.filter((e) => e.kind === 'quote')).toHaveLength(1);
  });

  it('refuses the same key with a different body with 422', async () => {
    const k = key();
    expect((await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' }, withKey(k))).status).toBe(200);
    expectV1Error(
      await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, amount: '2', provider: 'RELAY' }, withKey(k)),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('answers 409 to a request while another under the same key is in flight', async () => {
    t.sims.CHAINFLIP.configure({ faults: { quote: 'slow' }, slowMs: 1000 });
    const k = key();
    const body = { ...BTC_TO_ETH, provider: 'CHAINFLIP' };
    const quotesBefore = t.sims.CHAINFLIP.log.filter((e) => e.kind === 'quote').length;
    const first = t.post('/api/v1/quote/lock', body, withKey(k));
    // The first request is in flight once its quote has reached the (slow) provider.
    for (let i = 0; i < 400 && t.sims.CHAINFLIP.log.filter((e) => e.kind === 'quote').length === quotesBefore; i++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expectV1Error(await t.post('/api/v1/quote/lock', body, withKey(k)), 409, 'IDEMPOTENCY_IN_PROGRESS');
    expect((await first).status).toBe(200);
    expect((await t.post('/api/v1/quote/lock', body, withKey(k))).headers.get('idempotent-replayed')).toBe('true');
  });

  it('gives a retried execute its original transaction instead of QUOTE_EXPIRED', async () => {
    const locked = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
    const k = key();
    const first = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, withKey(k));
    const retry = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, withKey(k));
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body.data.transaction.id).toBe(first.body.data.transaction.id);
    const without = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId });
    expectV1Error(without, 409, 'QUOTE_EXPIRED');
    const k2 = key();
    expectV1Error(
      await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, withKey(k2)),
      409,
      'QUOTE_EXPIRED',
    );
    const replayedError = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, withKey(k2));
    expect(replayedError.headers.get('idempotent-replayed')).toBe('true');
    expectV1Error(replayedError, 409, 'QUOTE_EXPIRED');
  });

  it('records the response of work that ran even when Postgres refuses the first writes of the record', async () => {
    // Found by the soak: a Postgres restart right after a lock or execute left its key in flight, so the
    // replay answered 409 IDEMPOTENCY_IN_PROGRESS (and, a minute later, would have run the work again).
    const sql = t.app.sql;
    await sql`create sequence if not exists refused_idempotency_finishes`;
    await sql.unsafe(`create or replace function refuse_idempotency_finish() returns trigger language plpgsql as $$
      begin
        if new.state = 'done' and nextval('refused_idempotency_finishes') <= 2 then
          raise exception 'the idempotency record cannot be written now';
        end if;
        return new;
      end $$`);
    await sql`create trigger refuse_idempotency_finish before update on idempotency_keys
      for each row execute function refuse_idempotency_finish()`;
    try {
      const k = key();
      const body = { ...ETH_TO_BTC, provider: 'RELAY' };
      const first = await t.post('/api/v1/quote/lock', body, withKey(k));
      const replay = await t.post('/api/v1/quote/lock', body, withKey(k));
      expect(first.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const [{ refused }] = (await sql`select last_value::int as refused from refused_idempotency_finishes`) as any;
      expect(refused).toBeGreaterThanOrEqual(2);
    } finally {
      await sql`drop trigger if exists refuse_idempotency_finish on idempotency_keys`;
      await sql`drop function if exists refuse_idempotency_finish()`;
      await sql`drop sequence if exists refused_idempotency_finishes`;
    }
  });

  it('does not store validation failures or provider outages, so a corrected retry runs', async () => {
    const k = key();
    expectV1Error(
      await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY', amount: 'x' }, withKey(k)),
      400,
      'INVALID_AMOUNT',
    );
    expect((await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' }, withKey(k))).status).toBe(200);

    const locked = await t.post('/api/v1/quote/lock', { ...BTC_TO_ETH, provider: 'CHAINFLIP' });
    const k2 = key();
    t.sims.CHAINFLIP.configure({ faults: { execute: 'error5xx' } });
    expectV1Error(
      await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, withKey(k2)),
      503,
      'PROVIDER_UNAVAILABLE',
    );
    t.sims.CHAINFLIP.configure({ faults: { execute: 'none' } });
    expect((await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, withKey(k2))).status).toBe(200);
  });

  it('refuses a malformed key', async () => {
    expectV1Error(
      await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' }, withKey('x'.repeat(300))),
      400,
      'VALIDATION_ERROR',
      'Idempotency-Key',
    );
  });

  it('scopes keys per endpoint', async () => {
    const k = key();
    const lock = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' }, withKey(k));
    const exec = await t.post('/api/v1/quote/execute', { lockId: lock.body.data.lockId }, withKey(k));
    expect(exec.status).toBe(200);
    expect(exec.body.data.transaction).toBeTruthy();
  });

  it('replays lock and execute from a web process whose Redis is down, doing neither twice', async () => {
    const lockKey = key();
    const body = { ...ETH_TO_BTC, provider: 'RELAY' };
    const locked = await t.post('/api/v1/quote/lock', body, withKey(lockKey));
    const executeKey = key();
    const executed = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, withKey(executeKey));
    expect(executed.status).toBe(200);
    const quotesBefore = t.sims.RELAY.log.filter((e) => e.kind === 'quote').length;

    const cut = await startSibling(t, { REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const post = (path: string, payload: unknown, k: string) =>
        fetch(`${cut.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': k },
          body: JSON.stringify(payload),
        });
      const relocked = await post('/api/v1/quote/lock', body, lockKey);
      expect(relocked.status).toBe(200);
      expect(relocked.headers.get('idempotent-replayed')).toBe('true');
      expect(await relocked.json()).toEqual(locked.body);
      const reexecuted = await post('/api/v1/quote/execute', { lockId: locked.body.data.lockId }, executeKey);
      expect(reexecuted.status).toBe(200);
      expect((await reexecuted.json()).data.transaction.id).toBe(executed.body.data.transaction.id);
    } finally {
      await cut.stop();
    }
    expect(t.sims.RELAY.log.filter((e) => e.kind === 'quote').length).toBe(quotesBefore);
  });
});
