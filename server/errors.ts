import type { z } from 'zod';

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_AMOUNT: 400,
  INVALID_SLIPPAGE: 400,
  INVALID_ADDRESS: 400,
  UNSUPPORTED_PAIR: 400,
  MISSING_PROVIDER: 400,
  MISSING_LOCK_ID: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  QUOTE_EXPIRED: 409,
  SWAP_EXPIRED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  PROVIDER_UNAVAILABLE: 503,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  code: ErrorCode;
  field: string;
  message: string;
}

export interface AppErrorOptions {
  field?: string;
  /** Overrides the table, for codes the spec allows on two statuses (409 or 503). */
  status?: number;
  problems?: FieldProblem[];
  retryable?: boolean;
  cause?: unknown;
  /** Response headers the error implies (e.g. `Allow` on 405). */
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  readonly problems: FieldProblem[];
  readonly retryable: boolean;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    const status = options.status ?? ERROR_STATUS[code];
    // A client error is an expected answer, never logged with a trace: capturing one would cost every
    // lost execute race its most expensive step. Server errors keep theirs.
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message, { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.field = options.field ?? options.problems?.[0]?.field;
    this.problems = options.problems ?? [];
    this.retryable = options.retryable ?? this.status >= 500;
    this.headers = options.headers ?? {};
    // Every 503 is a "retry shortly": it says when, unless it names its own time.
    if (status === 503 && !Object.keys(this.headers).some((name) => name.toLowerCase() === 'retry-after')) {
      this.headers = { ...this.headers, 'retry-after': DEPENDENCY_RETRY_AFTER_SECONDS };
    }
  }
}

/** The single code, the shared code, or VALIDATION_ERROR for a mix: one envelope code must describe them all. */
export function validationError(problems: FieldProblem[]): AppError {
  const codes = new Set(problems.map((p) => p.code));
  const [only] = codes;
  const code = codes.size === 1 && only ? only : 'VALIDATION_ERROR';
  const message =
    problems.length === 1 && problems[0]
      ? problems[0].message
      : `${problems.length} problems with the request: ${problems.map((p) => p.field || 'body').join(', ')}`;
  return new AppError(code, message, { problems });
}

export const notFound = (what: string, field?: string) => new AppError('NOT_FOUND', `${what} not found`, { field });

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'DEPENDENCY_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // read_only_sql_transaction: a write reached a server that is (now) a standby, as during a failover.
  '25006',
  // Connection exceptions; PgBouncer answers 08P01 when it cannot reach or log in to the server.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08P01',
]);

/**
 * How soon a client may retry when a backing service is down: about a Postgres failover's loop. Every 503
 * says it (AppError adds it), the API's and a dashboard page's alike (server/http/unavailable-pages.ts),
 * unless the error names its own: a full history-read queue says 1 s, as it drains faster than a failover.
 */
export const DEPENDENCY_RETRY_AFTER_SECONDS = '2';

/** True for errors that mean Postgres or Redis cannot be reached right now. */
export function isDependencyUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; errors?: unknown[]; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (e.cause && e.cause !== error && isDependencyUnavailable(e.cause)) return true;
  if (Array.isArray(e.errors) && e.errors.some(isDependencyUnavailable)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /Connection is closed|Stream isn't writeable|enableOfflineQueue|Reached the max retries|connect ETIMEDOUT|CLUSTERDOWN|Too many Cluster redirections|TRYAGAIN|Failed to refresh slots cache|None of startup nodes is available/i.test(
    message,
  );
}

/** 503: a backing service is down for now; the client is told when to come back (Retry-After). */
export const dependencyUnavailable = (message: string, cause: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', message, { cause });

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDependencyUnavailable(error)) {
    return dependencyUnavailable('A backing service is temporarily unavailable; retry shortly', error);
  }
  return new AppError('INTERNAL_ERROR', 'Internal error', { cause: error, retryable: false });
}

/** Zod issues become field problems; a refinement may carry its spec code in `params.code`. */
export function problemsFromZod(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => {
    const params = (issue as { params?: { code?: ErrorCode } }).params;
    const field = issue.path.map(String).join('.');
    let message = issue.message;
    if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'Required';
    if (issue.code === 'unrecognized_keys') message = `Unknown field(s): ${issue.keys.join(', ')}`;
    return { code: params?.code ?? 'VALIDATION_ERROR', field, message };
  });
}
