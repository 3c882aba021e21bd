import { getAppContext } from '../context';
import { handleMetrics } from '../observability/prometheus';
import { handleApiRequest, handleHealth } from './routes';

type Handler = (request: Request) => Promise<Response>;

/** The method exports of one Next route file; every method goes through the same dispatcher. */
export function apiRoute(path?: string): Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', Handler> {
  const handler: Handler = (request) => handleApiRequest(getAppContext(), request, path);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}

export const metricsRoute = (): Handler => (request) => handleMetrics(getAppContext(), request);

export const healthRoute =
  (probe: 'live' | 'ready'): Handler =>
  () =>
    handleHealth(getAppContext(), probe);
