import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Logger } from '../log';
import { type Limited, rateLimitClient } from '../ratelimit/apply';
import { clientIdentity } from '../ratelimit/client';
import { addRateLimitHeaders, createRateLimiter } from '../ratelimit/limiter';

const TRACKER_PAGE = /^\/tx\/[^/?]+\/?(\?|$)/;

const TOO_MANY_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests · Switchyard</title></head>
<body><main><h1>Too many requests</h1><p>This address has asked for swap pages too often. Wait a moment and reload.</p></main></body></html>`;

/**
 * The public tracker page `/tx/<id>` reads what the status API reads, so it draws on the same
 * budget: the `transactions` route class, per client address, in the same Redis counters. Over it,
 * a 429 page with Retry-After and the X-RateLimit-* headers, before Next renders anything. True when
 * it answered (the caller hands the request to nobody).
 */
export function trackerPageLimiter(config: Config, redis: Redis, log: Pick<Logger, 'warn'>) {
  const limiter = createRateLimiter(config, redis);
  const limiting = { config, redis, log };
  return (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !TRACKER_PAGE.test(req.url ?? '')) return false;
    const client = clientIdentity(
      {
        headers: { get: (name) => (req.headers[name] as string | undefined) ?? null },
        peerAddress: req.socket.remoteAddress ?? '',
      },
      config,
    );
    // A limiter that cannot decide (undefined) lets the page render, as the API does.
    const answer = (decision: Limited) => {
      if (!decision || decision.allowed) return false;
      const headers: Record<string, string> = {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      };
      addRateLimitHeaders(headers, decision);
      res.writeHead(429, headers);
      res.end(TOO_MANY_PAGE);
      return true;
    };
    const decided = rateLimitClient(limiter, limiting, 'transactions', client);
    return decided instanceof Promise ? decided.then(answer) : answer(decided);
  };
}
