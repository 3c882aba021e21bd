import { describe, expect, it } from 'vitest';
import { withAdmin } from '../test/support/databases';
import { AppError, dependencyUnavailable, toAppError } from './errors';

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

  it('gives a refusal for want of a backing service (Idempotency-Key records) 503 with Retry-After', () => {
    const answer = dependencyUnavailable('Idempotency-Key records are unavailable; retry shortly', new Error('x'));
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
