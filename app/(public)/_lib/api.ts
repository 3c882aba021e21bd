import type { components } from '@/client/switchyard-api';

/** Browser client for the public HTTP API. Pages call only this, never server/ code. */

type Schemas = components['schemas'];

/** The shapes of the public API, generated from its OpenAPI document (`npm run openapi:types`). */
export type Chain = Schemas['Chain'];
export type Asset = Schemas['Asset'];
export type Source = Schemas['Source'];
export type AmountDisplay = Schemas['AmountDisplay'];
export type Fee = Schemas['Fee'] | Schemas['RecordedFee'];
export type RouteStep = Schemas['RouteStep'];
export type Route = Schemas['Route'];
export type LockedQuote = Schemas['LockedQuote'];
export type ExecPayload = Schemas['Exec'];
export type ExecutionMode = ExecPayload['meta']['executionMode'];
export type ProviderResult = Schemas['ProviderResult'];
export type ExecuteResult = Schemas['ExecuteResult'];
export type Transaction = Schemas['Transaction'];
export type TxStatus = Transaction['status'];
export type TxAsset = Schemas['TransactionAsset'];
export type TrackResult = Schemas['TrackResult'];
export type TransactionStatus = Schemas['TransactionStatus'];
export type TimelineEvent = Schemas['TimelineEvent'];
export type TransactionExecution = Schemas['TransactionExecution'];
export type ReferralStatus = Schemas['ReferralStatus'];
/** Slippage goes out as typed, so a bad value comes back as the API's own INVALID_SLIPPAGE message. */
export type QuoteRequest = Omit<Schemas['QuoteRequest'], 'slippage'> & { slippage?: number | string };
export type LockRequest = Omit<Schemas['LockRequest'], 'slippage'> & { slippage?: number | string };

export interface FieldProblem {
  code: string;
  field: string;
  message: string;
}

/** The v1 error envelope, plus NETWORK_ERROR / BAD_RESPONSE for failures before it. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string;
  readonly problems: FieldProblem[];
  readonly requestId: string | undefined;
  /** From Retry-After on a 429 or 503. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    field = '',
    problems: FieldProblem[] = [],
    requestId?: string,
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.problems = problems;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** One message per top-level request field (`exclude.0` counts as `exclude`); the first wins. */
  fieldMessages(toText: (problem: FieldProblem) => string = (p) => p.message): Record<string, string> {
    const byField: Record<string, string> = {};
    const problems = this.problems.length
      ? this.problems
      : [{ code: this.code, field: this.field, message: this.message }];
    for (const problem of problems) {
      const field = problem.field.split('.')[0] ?? '';
      if (field && !(field in byField)) byField[field] = toText({ ...problem, field });
    }
    return byField;
  }
}

export const asApiError = (error: unknown): ApiError =>
  error instanceof ApiError
    ? error
    : new ApiError(0, 'UNKNOWN', error instanceof Error ? error.message : 'Something went wrong');

const retryAfter = (header: string | null) => {
  const seconds = Number(header);
  return header && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
};

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** What a person reads when the answer is not ours (a proxy's or load balancer's page, say): what to do, not a status code. */
export function unreadableAnswer(status: number): string {
  if (status === 502 || status === 503 || status === 504) {
    return 'Switchyard is unavailable for a moment (it may be restarting). Nothing was changed; try again shortly.';
  }
  if (status === 429) return 'Too many requests from your connection for now. Wait a minute, then try again.';
  return 'Switchyard sent an answer this page could not read. Nothing was changed; try again, or reload the page.';
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: {
        accept: 'application/json',
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
      cache: 'no-store',
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach Switchyard. Check your connection and try again.');
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(response.status, 'BAD_RESPONSE', unreadableAnswer(response.status));
  }
  if (!response.ok) {
    const error = (body as { error?: Partial<ApiError> & { details?: { errors?: FieldProblem[] } } }).error;
    throw new ApiError(
      response.status,
      error?.code ?? 'UNKNOWN',
      error?.message ?? `Request failed (HTTP ${response.status}).`,
      error?.field ?? '',
      error?.details?.errors ?? [],
      error?.requestId,
      retryAfter(response.headers.get('retry-after')),
    );
  }
  return body as T;
}

const get = <T>(path: string, signal?: AbortSignal) => call<T>(path, { signal });
const post = <T>(path: string, body: unknown, headers?: Record<string, string>) =>
  call<T>(path, { method: 'POST', body: JSON.stringify(body), headers });

interface List<T> {
  data: T[];
}

export const api = {
  chains: (signal?: AbortSignal) => get<List<Chain>>('/api/v1/swap/chains?perPage=1000', signal),
  assets: (chain: string, signal?: AbortSignal) =>
    get<List<Asset>>(`/api/v1/swap/assets?chain=${encodeURIComponent(chain)}&perPage=1000`, signal),
  sources: (signal?: AbortSignal) => get<List<Source>>('/api/v1/swap/sources?perPage=300', signal),
  referral: (code: string, signal?: AbortSignal) =>
    get<{ data: ReferralStatus }>(`/api/v1/referral?code=${encodeURIComponent(code)}`, signal),
  quote: (body: QuoteRequest) => post<List<Route>>('/api/v1/quote', body),
  lock: (body: LockRequest) => post<{ data: LockedQuote }>('/api/v1/quote/lock', body),
  /** With an Idempotency-Key, a repeat (after a reload mid-execute) answers with the first execute's swap. */
  execute: (body: { lockId: string; referralCode?: string }, idempotencyKey: string) =>
    post<{ data: ExecuteResult }>('/api/v1/quote/execute', body, { 'idempotency-key': idempotencyKey }),
  status: (transactionId: string, signal?: AbortSignal) =>
    get<{ data: TransactionStatus }>(
      `/api/v1/transaction/status?transactionId=${encodeURIComponent(transactionId)}`,
      signal,
    ),
  track: (body: { transactionId: string; txHash?: string }) =>
    post<{ data: TrackResult }>('/api/v1/transaction/track', body),
  events: (transactionId: string, signal?: AbortSignal) =>
    get<List<TimelineEvent>>(`/api/v1/transaction/events?transactionId=${encodeURIComponent(transactionId)}`, signal),
  execution: (transactionId: string, signal?: AbortSignal) =>
    get<{ data: TransactionExecution }>(
      `/api/v1/transaction/execution?transactionId=${encodeURIComponent(transactionId)}`,
      signal,
    ),
  /** Server-Sent Events of the transaction's status (for `EventSource`, which resumes with Last-Event-ID itself). */
  statusStreamUrl: (transactionId: string) =>
    `/api/v1/transaction/stream?transactionId=${encodeURIComponent(transactionId)}`,
};
