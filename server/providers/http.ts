import type { z } from 'zod';
import { readCappedBody } from '../http/capped-body';
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
  headers: Headers;
}

const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

async function readCapped(response: Response, maxBytes: number, provider: ProviderKey): Promise<string> {
  const body = await readCappedBody(
    response,
    maxBytes,
    () => new ProviderError(provider, 'BAD_RESPONSE', `response larger than ${maxBytes} bytes`),
  );
  return body.toString('utf8');
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
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  async function request<S extends z.ZodType>(req: UpstreamRequest<S>): Promise<UpstreamResponse<z.output<S>>> {
    const url = new URL(req.path.replace(/^\//, ''), base);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? 'switchyard/1',
    };
    if (options.auth) headers[options.auth.header] = options.auth.value;
    if (req.body !== undefined) headers['content-type'] = 'application/json';

    let response: Response;
    try {
      response = await fetch(url, {
        method: req.method ?? 'GET',
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        redirect: 'manual',
        signal: req.signal,
      });
    } catch (error) {
      const aborted =
        req.signal.aborted || (error as Error)?.name === 'AbortError' || (error as Error)?.name === 'TimeoutError';
      throw new ProviderError(provider, 'UNAVAILABLE', aborted ? 'deadline exceeded' : 'network error');
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      throw new ProviderError(
        provider,
        'BAD_RESPONSE',
        `refused to follow a redirect (${response.status})`,
        response.status,
      );
    }
    let text: string;
    try {
      text = await readCapped(response, maxBytes, provider);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(provider, 'UNAVAILABLE', req.signal.aborted ? 'deadline exceeded' : 'connection lost');
    }
    const json = parseJson(text);
    const ok = req.okStatuses ? req.okStatuses.includes(response.status) : response.ok;
    if (!ok) {
      const classified = req.classify?.(response.status, json);
      if (classified) throw classified;
      if (response.ok) {
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
