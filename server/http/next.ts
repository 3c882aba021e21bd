import { getAppContext } from '../context';
import type { MaybePromise } from '../maybe-promise';
import { handleMetrics } from '../observability/prometheus';
import { handleApiRequest, handleHealth } from './routes';

/*
 * Every route file that mounts these exports `dynamic = 'force-dynamic'`: the API is never prerendered,
 * and with it Next hands the handler its request as it is rather than behind the Proxy it uses to detect
 * dynamic use (`proxyNextRequest`), which would otherwise run on every header and URL read.
 */

type Handler = (request: Request) => MaybePromise<Response>;
type MethodExports = Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', Handler>;

/** Every method of a route file to one handler, so the dispatcher (not Next's empty 405) answers each. */
const everyMethod = (handler: Handler): MethodExports => ({
  GET: handler,
  POST: handler,
  PUT: handler,
  PATCH: handler,
  DELETE: handler,
  OPTIONS: handler,
});

/** The method exports of one Next route file; every method goes through the same dispatcher. */
export const apiRoute = (path?: string): MethodExports =>
  everyMethod((request) => handleApiRequest(getAppContext(), request, path));

export const metricsRoute = (): Handler => (request) => handleMetrics(getAppContext(), request);

/** A probe's method exports: GET answers it, every other method the 405 envelope. */
export const healthRoute = (probe: 'live' | 'ready'): MethodExports =>
  everyMethod((request) => handleHealth(getAppContext(), probe, request));
