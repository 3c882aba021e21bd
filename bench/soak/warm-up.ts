/**
 * Before the clock starts, every documented operation is sent once to each web process, one at a time
 * (its valid body, as the fuzz's generator makes it), off the books. A web process loads a route's code,
 * opens its pools and fills its caches on its first requests: sent cold into the load, those first
 * requests queue behind that work on a busy machine, and the product sheds them (503 with Retry-After:
 * "History reads are busy", or "No provider could be reached for a quote" when the provider deadline
 * passes while the event loop is loading code). A load balancer's slow start spares a new backend the
 * same. The answers are not judged: the load that follows is.
 */
import { API_ROUTES } from '../../server/http/routes';
import { buildOpenApiDocument } from '../../server/openapi/document';
import { FUZZ_VALID_BODIES, operationsOf } from '../../test/support/fuzz-requests';
import { send } from './http';

export interface WarmUp {
  requests: number;
  ms: number;
}

export async function warmUp(webBases: readonly string[]): Promise<WarmUp> {
  const started = Date.now();
  const operations = operationsOf(buildOpenApiDocument(API_ROUTES), FUZZ_VALID_BODIES);
  let requests = 0;
  await Promise.all(
    webBases.map(async (base) => {
      for (const op of operations) {
        const body = op.validBody === undefined ? undefined : JSON.stringify(op.validBody);
        await send({
          method: op.method,
          base,
          path: op.path,
          body,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          timeoutMs: 20_000,
        }).catch(() => undefined);
        requests += 1;
      }
    }),
  );
  return { requests, ms: Date.now() - started };
}
