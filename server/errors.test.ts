import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/support/app';
import { expectV1Error } from '../test/support/assertions';
import { withAdmin } from '../test/support/databases';
import { ETH_TO_BTC } from '../test/support/fixtures';
import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS, toAppError } from './errors';

/** What a failover looks like to a client: the primary gone, or a write reaching the demoted (read-only) server. */
describe('toAppError during a Postgres failover', () => {
  it('answers a write on a read-only server (SQLSTATE 25006) with 503 and Retry-After', async () => {
    const error = await withAdmin((sql) => sql.begin('read only', (tx) => tx`create table never_made (i int)`)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as { code?: string }).code).toBe('25006');
    const answer = toAppError(error);
    expect(answer.status).toBe(503);
    expect(answer.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });

  it.each([
    ['the server shutting down', { code: '57P01' }],
    ['a connection lost mid-query', { code: 'CONNECTION_CLOSED' }],
    ['a connection failure', { code: '08006' }],
  ])('answers %s with 503 and Retry-After', (_, error) => {
    const answer = toAppError(Object.assign(new Error('lost'), error));
    expect(answer.status).toBe(503);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps an unknown error a 500 without Retry-After', () => {
    const answer = toAppError(new Error('a bug'));
    expect(answer.status).toBe(500);
    expect(answer.headers['retry-after']).toBeUndefined();
    expect(toAppError(new AppError('NOT_FOUND', 'x')).status).toBe(404);
  });
});

/** The same refusals as a v1 client gets them: the status, the code and the Retry-After header on the wire. */
describe('the v1 API when a write is refused', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.stop());

  /** Makes every insert into `table` fail with `sqlstate` for the length of `body`. */
  async function refusingInserts(table: string, sqlstate: string, body: () => Promise<void>) {
    const sql = t.app.sql;
    await sql.unsafe(`create or replace function refuse_insert() returns trigger language plpgsql as $$
      begin raise exception 'refused' using errcode = '${sqlstate}'; end $$`);
    await sql.unsafe(
      `create trigger refuse_insert before insert on ${table} for each row execute function refuse_insert()`,
    );
    try {
      await body();
    } finally {
      await sql.unsafe(`drop trigger if exists refuse_insert on ${table}`);
      await sql`drop function if exists refuse_insert()`;
    }
  }

  it('answers a lock whose write reaches a read-only server (25006) with 503 and Retry-After', async () => {
    await refusingInserts('locks', '25006', async () => {
      const res = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
      expectV1Error(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe(DEPENDENCY_RETRY_AFTER_SECONDS);
    });
  });

  it('refuses a keyed lock with 503 and Retry-After when its Idempotency-Key record cannot be written', async () => {
    // Any failure of the store, not only a recognised outage: without the record a retry could lock twice.
    await refusingInserts('idempotency_keys', 'P0001', async () => {
      const res = await t.post(
        '/api/v1/quote/lock',
        { ...ETH_TO_BTC, provider: 'RELAY' },
        { headers: { 'idempotency-key': `key-${Math.random().toString(36).slice(2)}` } },
      );
      expectV1Error(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe(DEPENDENCY_RETRY_AFTER_SECONDS);
    });
  });
});
