import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const IN_FLIGHT_TTL_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

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
 * Stripe's semantics in Redis: the first response for a key is kept for the TTL and replayed for
 * the same body; another body is 422; a request still running under the key is 409.
 */
export function createIdempotencyStore(redis: Redis, prefix: string, ttlSeconds: number): IdempotencyStore {
  const redisKey = (scope: string, key: string) =>
    `${prefix}:idem:${scope}:${createHash('sha256').update(key).digest('hex')}`;
  return {
    async begin(scope, key, print) {
      const k = redisKey(scope, key);
      const claimed = await redis.set(
        k,
        JSON.stringify({ state: 'in_flight', fingerprint: print } satisfies StoredOutcome),
        'PX',
        IN_FLIGHT_TTL_MS,
        'NX',
      );
      if (claimed === 'OK') return undefined;
      const raw = await redis.get(k);
      if (!raw) return this.begin(scope, key, print);
      const stored = JSON.parse(raw) as StoredOutcome;
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
      return { status: stored.status ?? 200, body: stored.body };
    },
    async finish(scope, key, print, response) {
      const stored: StoredOutcome = { state: 'done', fingerprint: print, status: response.status, body: response.body };
      await redis.set(redisKey(scope, key), JSON.stringify(stored), 'EX', ttlSeconds);
    },
    async abandon(scope, key) {
      await redis.del(redisKey(scope, key));
    },
  };
}
