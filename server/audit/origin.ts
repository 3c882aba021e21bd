import type { RequestOrigin } from './record';

/** A user agent is the client's to choose; a long one is cut rather than stored whole in an append-only log. */
const USER_AGENT_MAX = 512;

/** Where a request came from; `clientAddress` by the rate limiter's rule (ratelimit/client.ts). */
export const requestOrigin = (headers: Headers, clientAddress: string | null, requestId: string): RequestOrigin => ({
  requestId,
  clientAddress,
  userAgent: headers.get('user-agent')?.slice(0, USER_AGENT_MAX) ?? null,
});
