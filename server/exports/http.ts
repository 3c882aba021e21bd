import type { z } from 'zod';
import { affiliateStatementCsv, exportStatementSwaps } from '../affiliates/statement';
import { exportAuditEvents } from '../audit/export';
import { requestOrigin } from '../audit/origin';
import { recordAudit } from '../audit/record';
import { auditFilterInput } from '../audit/schemas';
import { GATES, type Gate, passesGate, type Viewer } from '../auth/roles';
import { getViewer } from '../auth/session';
import { type AppContext, getAppContext } from '../context';
import { problemsFromZod, toAppError, validationError } from '../errors';
import { newRequestId } from '../ids';
import { perKey } from '../per-key';
import { clientAddress } from '../ratelimit/client';
import { onReadTarget, sessionFences } from '../read-context';
import { affiliateStatementInput } from '../schemas/affiliates';
import { transactionSearchInput } from '../schemas/transactions';
import { limitDashboardCall } from '../trpc/rate-limit';
import type { CsvExport } from './stream';
import { exportTransactions } from './transactions';

const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  Response.json({ error: { code, message } }, { status, headers: { 'cache-control': 'no-store', ...headers } });

/**
 * Exports between opening (their connection reserved) and their audit event (which needs another):
 * fewer than the pool holds, so some connection is always free or held by something that finishes,
 * and a burst of exports cannot hold every one their audits wait for.
 */
const openingExports = perKey((app: AppContext) => {
  const room = Math.max(1, app.config.databasePoolMax - 1);
  let open = 0;
  const waiting: (() => void)[] = [];
  return async <T>(step: () => Promise<T>): Promise<T> => {
    if (open >= room) await new Promise<void>((resolve) => waiting.push(resolve));
    else open++;
    try {
      return await step();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else open--;
    }
  };
});

/** The procedure's input as tRPC sends a query's: JSON in `?input=`. */
function parseInput<T>(schema: z.ZodType<T>, url: string): T {
  const text = new URL(url).searchParams.get('input');
  let raw: unknown = {};
  try {
    if (text) raw = JSON.parse(text);
  } catch {
    throw validationError([{ code: 'VALIDATION_ERROR', field: 'input', message: 'input must be JSON' }]);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(problemsFromZod(parsed.error));
  return parsed.data;
}

/**
 * A dashboard CSV download: the session and its role checked as the page's tRPC procedure checks
 * them (`gate`, then the user's dashboard rate limit), the input parsed with the procedure's schema,
 * and the body streamed as `run` reads it. `X-Total-Count` is sent first, for the progress bar.
 */
export function csvExportRoute<T>(
  kind: string,
  gate: Gate,
  schema: z.ZodType<T>,
  run: (ctx: AppContext, viewer: Viewer, input: T, signal: AbortSignal) => Promise<CsvExport>,
) {
  return async (request: Request, app: AppContext = getAppContext()): Promise<Response> => {
    try {
      const viewer = await getViewer(app, request.headers);
      if (!viewer) return refuse(401, 'UNAUTHORIZED', 'Sign in to continue');
      if (!passesGate(viewer.role, gate)) {
        return refuse(403, 'FORBIDDEN', `This needs the ${GATES[gate].join(' or ')} role`);
      }
      await limitDashboardCall(app, viewer.userId);
      const input = parseInput(schema, request.url);
      const requestId = newRequestId();
      // Audited only once it is open (scope checked, rows counted, ready to stream): a refusal is no export.
      const csv = await openingExports(app)(async () => {
        const opened = await onReadTarget(app, (on) => run(on, viewer, input, request.signal), sessionFences(viewer));
        try {
          await recordAudit(app.db, {
            action: 'export',
            actor: viewer,
            origin: requestOrigin(request.headers, clientAddress(request, app.config), requestId),
            targetId: kind,
            after: { filter: input as Record<string, unknown> },
          });
        } catch (error) {
          await opened.body.cancel().catch(() => {});
          throw error;
        }
        return opened;
      });
      return new Response(csv.body, {
        headers: {
          'content-type': 'text/csv; charset=utf-8; header=present',
          'content-disposition': `attachment; filename="${csv.filename}"`,
          'x-total-count': String(csv.total),
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'x-request-id': requestId,
        },
      });
    } catch (error) {
      const problem = toAppError(error);
      if (problem.status >= 500) app.log.error({ err: error }, 'export failed');
      return refuse(problem.status, problem.code, problem.message, problem.headers);
    }
  };
}

/** GET /api/exports/transactions: the Transactions page's search, every match. */
export const transactionsExportRoute = csvExportRoute(
  'transactions',
  'support',
  transactionSearchInput,
  (ctx, _viewer, input, signal) => exportTransactions(ctx, input, { signal }),
);

/** GET /api/exports/audit: the audit page's filters, every matching event. */
export const auditExportRoute = csvExportRoute('audit', 'admin', auditFilterInput, (ctx, _viewer, input, signal) =>
  exportAuditEvents(ctx, input, { signal }),
);

/** GET /api/exports/affiliate-statement: per code and in all, for whole UTC days; affiliates their own, admins anyone's. */
export const affiliateStatementExportRoute = csvExportRoute(
  'affiliate-statement',
  'affiliate',
  affiliateStatementInput,
  (ctx, viewer, input) => affiliateStatementCsv(ctx, viewer, input),
);

/** GET /api/exports/affiliate-swaps: the swaps a statement counts, one line each. */
export const affiliateSwapsExportRoute = csvExportRoute(
  'affiliate-swaps',
  'affiliate',
  affiliateStatementInput,
  (ctx, viewer, input, signal) => exportStatementSwaps(ctx, viewer, input, { signal }),
);
