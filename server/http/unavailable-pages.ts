import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors';

/** Stamped by the web server on every request, so a page render can report that a dependency is down. */
export const RENDER_ID_HEADER = 'x-switchyard-render-id';

// Next's server bundle and the web server each load their own copy of this module; the registry lives
// on globalThis so both see the same one.
const REGISTRY = Symbol.for('switchyard.unavailableRenders');
const registry = (): Set<string> => {
  const holder = globalThis as { [REGISTRY]?: Set<string> };
  holder[REGISTRY] ??= new Set();
  return holder[REGISTRY];
};

/** A page calls this when it rendered the "temporarily unavailable" state: its response goes out as 503. */
export function reportUnavailableRender(renderId: string | null): void {
  if (renderId) registry().add(renderId);
}

/** Paths that never render a page: the API answers its own status, and static files have none to pick. */
const NO_PAGE_RENDER = /^\/(api|_next)\//;

/**
 * Next gives pages no way to pick a 5xx status. The web server tags each request that may render a
 * page, and when its render reported a dependency down, the status line becomes 503 with Retry-After.
 */
export function answerUnavailableRenders(req: IncomingMessage, res: ServerResponse): void {
  if (NO_PAGE_RENDER.test(req.url ?? '')) return;
  const renderId = randomUUID();
  req.headers[RENDER_ID_HEADER] = renderId;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (!registry().delete(renderId)) return writeHead.call(this, statusCode, ...(rest as []));
    this.setHeader('retry-after', DEPENDENCY_RETRY_AFTER_SECONDS);
    this.setHeader('cache-control', 'no-store');
    return writeHead.call(this, 503, ...(rest as []));
  } as typeof res.writeHead;
  res.once('close', () => registry().delete(renderId));
}
