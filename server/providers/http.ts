import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { z } from 'zod';
import { activeTracing } from '../tracing/active';
import { ProviderError } from './errors';
import type { ProviderKey } from './types';

export interface UpstreamOptions {
  provider: ProviderKey;
  baseUrl: string;
  /** Header and value sent on every call when the operator configured an API key. */
  auth?: { header: string; value: string };
  /** Hosts a live deployment may reach; empty means any (simulated mode on loopback). */
  allowedHosts?: string[];
  maxResponseBytes?: number;
  userAgent?: string;
  /** Charged once per HTTP request before it is sent (a provider budget counted per request). */
  beforeRequest?: (path: string) => Promise<void>;
}

export interface UpstreamRequest<S extends z.ZodType> {
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  schema: S;
  signal: AbortSignal;
  /** Statuses whose body is parsed with `schema` (default: 2xx). */
  okStatuses?: number[];
  /** Maps a non-OK answer to a provider error kind; the default treats 4xx as REJECTED. */
  classify?: (status: number, body: unknown) => ProviderError | undefined;
}

export interface UpstreamResponse<T> {
  status: number;
  data: T;
  headers: IncomingHttpHeaders;
}

const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Idle keep-alive connections are closed before a server would likely close them under us. */
const IDLE_SOCKET_MS = 4000;

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Why a call ended without a whole answer, in the words the provider error carries. */
class TransportError extends Error {
  constructor(readonly stage: 'request' | 'response') {
    super(stage);
  }
}

/**
 * One HTTP exchange on node:http over a keep-alive pool: a good deal cheaper per call than `fetch`,
 * whose Request, Response, Headers and web streams a status poll or a quote fan-out pays for on every
 * call. Redirects are never followed (the answer is reported as it is, unread); the body is refused
 * past `maxBytes`, first by its Content-Length, then by what arrives.
 */
function exchange(
  url: URL,
  options: { method: string; headers: OutgoingHttpHeaders; agent: HttpAgent },
  signal: AbortSignal,
  payload: string | undefined,
  maxBytes: number,
  tooLarge: () => ProviderError,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let answered = false;
    const req = send(url, options, (res) => {
      answered = true;
      const status = res.statusCode ?? 0;
      const fail = (error: Error) => {
        req.destroy();
        reject(error);
      };
      res.on('error', () => reject(new TransportError('response')));
      res.on('close', () => {
        if (!res.complete) reject(new TransportError('response'));
      });
      if (status >= 300 && status < 400) {
        res.resume();
        resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
        return;
      }
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status,
          headers: res.headers,
          body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', () => reject(new TransportError('request')));
    // Not node's own `signal` option: it destroys the request with an AbortError whose stack is
    // formatted at once (through source maps under tsx), a cost every hanging provider call paid.
    const abort = () => req.destroy();
    signal.addEventListener('abort', abort, { once: true });
    req.on('close', () => {
      signal.removeEventListener('abort', abort);
      // Destroyed before an answer began (once one has, its own events settle the call).
      if (!answered) reject(new TransportError('request'));
    });
    if (signal.aborted) abort();
    req.end(payload);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** One provider's HTTP API: deadlines from the caller's signal, no redirects, capped and validated bodies. */
export function createUpstream(options: UpstreamOptions) {
  const { provider } = options;
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  if (options.allowedHosts?.length && !options.allowedHosts.includes(base.hostname)) {
    throw new Error(`${provider}: host ${base.hostname} is not in the allow-list`);
  }
  activeTracing()?.nameUpstream(base.host, provider);
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const agent =
    base.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS })
      : new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS });

  async function request<S extends z.ZodType>(req: UpstreamRequest<S>): Promise<UpstreamResponse<z.output<S>>> {
    const url = new URL(req.path.replace(/^\//, ''), base);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? 'switchyard/1',
    };
    if (options.auth) headers[options.auth.header] = options.auth.value;
    if (req.body !== undefined) headers['content-type'] = 'application/json';

    await options.beforeRequest?.(url.pathname.slice(base.pathname.length));
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));

    let response: RawResponse;
    try {
      response = await exchange(
        url,
        { method: req.method ?? 'GET', headers, agent },
        req.signal,
        payload,
        maxBytes,
        () => new ProviderError(provider, 'BAD_RESPONSE', `response larger than ${maxBytes} bytes`),
      );
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      const message = req.signal.aborted
        ? 'deadline exceeded'
        : error instanceof TransportError && error.stage === 'response'
          ? 'connection lost'
          : 'network error';
      throw new ProviderError(provider, 'UNAVAILABLE', message);
    }
    if (response.status >= 300 && response.status < 400) {
      throw new ProviderError(
        provider,
        'BAD_RESPONSE',
        `refused to follow a redirect (${response.status})`,
        response.status,
      );
    }
    const text = response.body.toString('utf8');
    const json = parseJson(text);
    const ok = req.okStatuses
      ? req.okStatuses.includes(response.status)
      : response.status >= 200 && response.status < 300;
    if (!ok) {
      const classified = req.classify?.(response.status, json);
      if (classified) throw classified;
      if (response.status >= 200 && response.status < 300) {
        throw new ProviderError(provider, 'BAD_RESPONSE', `unexpected status ${response.status}`, response.status);
      }
      if (response.status === 429) throw new ProviderError(provider, 'RATE_LIMITED', 'rate limited upstream', 429);
      if (response.status >= 500) {
        throw new ProviderError(provider, 'UNAVAILABLE', `upstream error ${response.status}`, response.status);
      }
      throw new ProviderError(provider, 'REJECTED', `upstream refused (${response.status})`, response.status);
    }
    if (json === undefined) throw new ProviderError(provider, 'BAD_RESPONSE', 'body is not JSON', response.status);
    const parsed = req.schema.safeParse(json);
    if (!parsed.success) {
      throw new ProviderError(provider, 'BAD_RESPONSE', 'body does not match the documented schema', response.status);
    }
    return { status: response.status, data: parsed.data, headers: response.headers };
  }

  return { request, baseUrl: base.toString() };
}

export type Upstream = ReturnType<typeof createUpstream>;
