import { createHash } from 'node:crypto';
import type postgres from 'postgres';
import { AppError } from '../errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const IN_FLIGHT_TTL_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/**
 * How long `finish` keeps trying to record a response whose work already ran (about 10 s: a Postgres
 * restart). Left `in_flight`, the key would answer 409 to retries and, once the in-flight TTL ran out,
 * let a retry run the work a second time.
 */
const FINISH_RETRY_DELAYS_MS = [100, 200, 400, 800, 1600, 2000, 2000, 2000];

interface StoredOutcome {
  state: 'in_flight' | 'done';
  fingerprint: string;
  status?: number;
  body?: unknown;
}

export interface IdempotentResponse {
  status: number;
  body: unknown;
}

export interface IdempotencyStore {
  /** A stored response to replay, or undefined once this caller has claimed the key. */
  begin(scope: string, key: string, fingerprint: string): Promise<IdempotentResponse | undefined>;
  finish(scope: string, key: string, fingerprint: string, response: IdempotentResponse): Promise<void>;
  abandon(scope: string, key: string): Promise<void>;
}

export function validateIdempotencyKey(value: string): string {
  if (!KEY_PATTERN.test(value)) {
    const message = 'Idempotency-Key must be 1–255 visible ASCII characters';
    throw new AppError('VALIDATION_ERROR', message, {
      problems: [{ code: 'VALIDATION_ERROR', field: 'Idempotency-Key', message }],
    });
  }
  return value;
}

export const fingerprint = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

/** Responses a retry should see again: success, and outcomes of work that really ran (404/409). */
export const isReplayable = (status: number) => (status >= 200 && status < 300) || status === 404 || status === 409;

/**
 * Stripe's semantics, kept in Postgres with the work they guard: the first response for a key is
 * kept for the TTL and replayed for the same body; another body is 422; a request still running
 * under the key is 409. A Redis outage or restart loses nothing, so a retry never runs the work twice.
 */
export function createIdempotencyStore(sql: postgres.Sql, ttlSeconds: number): IdempotencyStore {
  const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');
  const store: IdempotencyStore = {
    async begin(scope, key, print) {
      const hash = keyHash(key);
      const claimed = await sql`insert into idempotency_keys (scope, key_hash, fingerprint, state, expires_at)
        values (${scope}, ${hash}, ${print}, 'in_flight', now() + make_interval(secs => ${IN_FLIGHT_TTL_MS / 1000}))
        on conflict (scope, key_hash) do update
          set fingerprint = excluded.fingerprint, state = 'in_flight', status = null, body = null,
            expires_at = excluded.expires_at
          where idempotency_keys.expires_at <= now()
        returning scope`;
      if (claimed.length === 1) return undefined;
      const [stored] = await sql<(Omit<StoredOutcome, 'body'> & { body: string | null })[]>`
        select state, fingerprint, status, body from idempotency_keys
        where scope = ${scope} and key_hash = ${hash}`;
      if (!stored) return store.begin(scope, key, print);
      if (stored.fingerprint !== print) {
        throw new AppError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used with a different request body',
          {
            field: 'Idempotency-Key',
          },
        );
      }
      if (stored.state === 'in_flight') {
        throw new AppError(
          'IDEMPOTENCY_IN_PROGRESS',
          'A request with this Idempotency-Key is still being processed; retry shortly',
          {
            field: 'Idempotency-Key',
          },
        );
      }
      return { status: stored.status ?? 200, body: stored.body === null ? null : JSON.parse(stored.body) };
    },
    async finish(scope, key, print, response) {
      const body = JSON.stringify(response.body ?? null);
      const hash = keyHash(key);
      for (let attempt = 0; ; attempt++) {
        try {
          await sql`update idempotency_keys set state = 'done', fingerprint = ${print}, status = ${response.status},
              body = ${body}, expires_at = now() + make_interval(secs => ${ttlSeconds})
            where scope = ${scope} and key_hash = ${hash}`;
          return;
        } catch (error) {
          const delay = FINISH_RETRY_DELAYS_MS[attempt];
          if (delay === undefined) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    },
    async abandon(scope, key) {
      await sql`delete from idempotency_keys where scope = ${scope} and key_hash = ${keyHash(key)}`;
    },
  };
  return store;
}
