/**
 * A typed integrator flow against the v1 interface: quote → lock → execute → (wallet) → track →
 * status. Types come from `switchyard-api.d.ts`, generated from the OpenAPI document with
 * `npm run openapi:types`; nothing here is hand-typed. Type-checked by `tsc`, not run in tests.
 */
import type { components, paths } from './switchyard-api';

type Schemas = components['schemas'];
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Ok<Op> = Op extends { responses: { 200: infer Response } } ? JsonOf<Response> : never;
type RequestBody<Op> = Op extends { requestBody: infer Body } ? JsonOf<Body> : never;
type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
type PostPath = { [P in keyof paths]: paths[P] extends { post: object } ? P : never }[keyof paths];

/** A v1 error answer: branch on `body.error.code`, never on the message. */
export class SwitchyardError extends Error {
  constructor(
    readonly status: number,
    readonly body: Schemas['V1Error'],
  ) {
    super(`${status} ${body.error.code}: ${body.error.message} (${body.error.requestId})`);
    this.name = 'SwitchyardError';
  }
}

export interface Client {
  get<P extends GetPath>(path: P, query: Query<paths[P]['get']>): Promise<Ok<paths[P]['get']>>;
  post<P extends PostPath>(
    path: P,
    body: RequestBody<paths[P]['post']>,
    headers?: Record<string, string>,
  ): Promise<Ok<paths[P]['post']>>;
}

export function createClient(baseUrl: string): Client {
  async function send(path: string, init: RequestInit) {
    const res = await fetch(new URL(path, baseUrl), init);
    const body = await res.json();
    if (!res.ok) throw new SwitchyardError(res.status, body as Schemas['V1Error']);
    return body;
  }
  return {
    get(path, query) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
        for (const item of Array.isArray(value) ? value : [value])
          if (item !== undefined) search.append(key, String(item));
      }
      return send(`${path}?${search}`, { method: 'GET' });
    },
    post(path, body, headers = {}) {
      return send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    },
  };
}

export interface Wallet {
  /** Performs the wallet call in `exec` (approval first when asked) and returns the source hash, if any. */
  execute(exec: Schemas['Exec']): Promise<string | undefined>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one swap on the best route and returns its final transaction, or null when no route exists. */
export async function swap(
  client: Client,
  request: Schemas['QuoteRequest'] & { depositor: string; recipient: string },
  wallet: Wallet,
  { pollMs = 3_000, referralCode }: { pollMs?: number; referralCode?: string } = {},
): Promise<Schemas['Transaction'] | null> {
  const { data: routes } = await client.post('/api/v1/quote', request);
  const best = routes[0];
  if (!best) return null;

  // One key per logical action: a retry after a timeout gets the stored answer instead of a second lock.
  const { data: locked } = await client.post(
    '/api/v1/quote/lock',
    { ...request, provider: best.provider, routeId: best.routeId, referralCode },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  console.log(`locked ${locked.lockId} on ${locked.provider} until ${locked.expiresAt}: ${locked.dst.formatted}`);

  const { data: executed } = await client.post(
    '/api/v1/quote/execute',
    { lockId: locked.lockId },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  const transactionId = executed.transaction.id;

  if (executed.exec?.meta.walletExecution) {
    const txHash = await wallet.execute(executed.exec);
    const { data: tracked } = await client.post('/api/v1/transaction/track', {
      transactionId,
      ...(txHash ? { txHash } : {}),
    });
    if (tracked.final) console.log(`already final: ${tracked.transaction.status}`);
  } else if (executed.exec?.meta.depositAddress) {
    console.log(`send ${executed.exec.srcAmount} (base units) to ${executed.exec.meta.depositAddress}`);
  }

  for (;;) {
    const { data } = await client.get('/api/v1/transaction/status', { transactionId });
    if (data.final) return data.transaction;
    await sleep(pollMs);
  }
}

/** Recent swaps of a wallet, newest first. */
export async function recentSwaps(client: Client, wallet: string) {
  const { data, pagination } = await client.get('/api/v1/transaction/history', {
    addresses: [wallet],
    perPage: 20,
  });
  return { transactions: data, more: pagination.hasMore };
}

/**
 * Follows a swap over `GET /api/v1/transaction/stream` (Server-Sent Events) instead of polling, and
 * resolves with its final state. A dropped or expired stream is reopened with `Last-Event-ID`, so
 * the state already seen is not sent again. In a browser, `new EventSource(url)` does all of this.
 */
export async function followStatus(
  baseUrl: string,
  transactionId: string,
  onChange: (status: Schemas['TransactionStatus']) => void,
): Promise<Schemas['Transaction']> {
  let lastEventId = '';
  for (;;) {
    const url = new URL(`/api/v1/transaction/stream?transactionId=${encodeURIComponent(transactionId)}`, baseUrl);
    const res = await fetch(url, { headers: lastEventId ? { 'last-event-id': lastEventId } : {} }).catch(() => null);
    if (res && !res.ok) throw new SwitchyardError(res.status, (await res.json()) as Schemas['V1Error']);
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res?.body?.getReader();
    const read = () => reader?.read().catch(() => undefined);
    for (let chunk = await read(); chunk && !chunk.done; chunk = await read()) {
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const fields = new Map(
          buffer
            .slice(0, end)
            .split('\n')
            .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)] as const),
        );
        buffer = buffer.slice(end + 2);
        if (fields.get('event') !== 'status') continue;
        const status = JSON.parse(fields.get('data') ?? 'null') as Schemas['TransactionStatus'];
        lastEventId = fields.get('id') ?? lastEventId;
        onChange(status);
        if (status.final) return status.transaction;
      }
    }
    await sleep(2_000);
  }
}
