import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { requestOrigin } from '../audit/origin';
import { recordAudit } from '../audit/record';
import type { AppContext } from '../context';
import { newRequestId } from '../ids';
import { signInFailures } from '../observability/registry';

/**
 * Counts a throttled attempt from `address` (at `account`) and claims this limiter window for both;
 * answers the attempts to record (this one and any earlier ones not yet recorded), or 0 while the
 * window's event for this address or account is already written.
 */
const CLAIM = `
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
for i = 2, #KEYS do if redis.call('EXISTS', KEYS[i]) == 1 then return 0 end end
for i = 2, #KEYS do redis.call('SET', KEYS[i], '1', 'PX', ARGV[1]) end
redis.call('DEL', KEYS[1])
return n`;

/** Unrecorded attempts are carried into the address's next event for this long at most. */
const PENDING_TTL_SECONDS = 24 * 3600;

type Claim = (keys: string[], windowMs: number) => Promise<number>;

/** While Redis does not answer: the same claim in this process's memory. */
function memoryClaim(): Claim {
  const pending = new Map<string, number>();
  const held = new Map<string, number>();
  return async ([pendingKey, ...gates]) => {
    const key = pendingKey as string;
    const n = (pending.get(key) ?? 0) + 1;
    pending.set(key, n);
    if (pending.size > 10_000) pending.delete(pending.keys().next().value as string);
    if (gates.some((gate) => held.has(gate))) return 0;
    if (held.size > 10_000) held.clear();
    for (const gate of gates) held.set(gate, 1);
    pending.delete(key);
    return n;
  };
}

const redisClaim =
  (redis: Redis): Claim =>
  async (keys, windowMs) =>
    Number(await redis.eval(CLAIM, keys.length, ...keys, windowMs, PENDING_TTL_SECONDS));

const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);

const fallbackClaim = memoryClaim();

export interface ThrottledSignIn {
  /** The client address our auth handler vouched for. */
  address: string;
  /** The email tried, as the sign-in body gave it (lower-cased, cut). */
  email: string | undefined;
  headers: Headers;
}

/**
 * Audits sign-ins the limiter refused without flooding the log: at most one `auth.sign_in_failed`
 * event (reason `throttled`) per address, and per account tried, in each limiter window, carrying
 * how many throttled attempts from that address it stands for. Windows are fixed buckets of the
 * limiter's length from `now`. Every refused attempt still counts in `switchyard_sign_in_failures_total`.
 */
export async function auditThrottledSignIn(app: AppContext, attempt: ThrottledSignIn, now = Date.now()) {
  signInFailures.inc();
  const windowMs = app.config.signInRateLimit.rule.window * 1000;
  const bucket = Math.floor(now / windowMs);
  const base = `${app.config.redisPrefix}:{audit-throttled}`;
  const keys = [
    `${base}:pending:${digest(attempt.address)}`,
    `${base}:address:${digest(attempt.address)}:${bucket}`,
    ...(attempt.email ? [`${base}:account:${digest(attempt.email)}:${bucket}`] : []),
  ];
  // Held past its bucket's end: the keys name the bucket, so expiry only has to come after it.
  const holdMs = windowMs * 2;
  const attempts = await redisClaim(app.redis)(keys, holdMs).catch((error) => {
    app.log.warn({ err: error }, 'throttled sign-in claim fell back to this process');
    return fallbackClaim(keys, holdMs);
  });
  if (attempts === 0) return;
  await recordAudit(app.db, {
    action: 'auth.sign_in_failed',
    actor: null,
    actorEmail: attempt.email,
    origin: requestOrigin(attempt.headers, attempt.address, newRequestId()),
    after: { reason: 'throttled', attempts, windowSeconds: app.config.signInRateLimit.rule.window },
  });
}
