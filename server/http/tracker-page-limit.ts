import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { clientHash, clientIdentity } from '../ratelimit/client';
import { countRateLimitHit } from '../ratelimit/hit-counter';
import { addRateLimitHeaders, createRateLimiter, type RateDecision } from '../ratelimit/limiter';

const TRACKER_PAGE = /^\/tx\/[^/?]+\/?(\?|$)/;

const TOO_MANY_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests · Switchyard</title></head>
<body><main><h1>Too many requests</h1><p>This address has asked for swap pages too often. Wait a moment and reload.</p></main></body></html>`;

/**
 * The public tracker page `/tx/<id>` reads what the status API reads, so it draws on the same
 * budget: the `transactions` route class, per client address, in the same Redis counters. Over it,
 * a 429 page with Retry-After and the X-RateLimit-* headers, before Next renders anything. True when
 * it answered (the caller hands the request to nobody).
 */
export function trackerPageLimiter(config: Config, redis: Redis) {
  const limiter = createRateLimiter(config, redis);
  const refuse = (res: ServerResponse, decision: RateDecision, client: string) => {
    countRateLimitHit(redis, config.redisPrefix, decision.routeClass, clientHash(client, config.rateLimits.hashKey));
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    };
    addRateLimitHeaders(headers, decision);
    res.writeHead(429, headers);
    res.end(TOO_MANY_PAGE);
  };
  return (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !TRACKER_PAGE.test(req.url ?? '')) return false;
    const client = clientIdentity(
      {
        headers: { get: (name) => (req.headers[name] as string | undefined) ?? null },
        peerAddress: req.socket.remoteAddress ?? '',
      },
      config,
    );
    const answer = (decision: RateDecision) => {
      if (decision.allowed) return false;
      refuse(res, decision, client);
      return true;
    };
    try {
      const decision = limiter.consume('transactions', client);
      // A limiter that cannot decide lets the page render, as the API does.
      return decision instanceof Promise ? decision.then(answer, () => false) : answer(decision);
    } catch {
      return false;
    }
  };
}
