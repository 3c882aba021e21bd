/** A small HTTP client for the soak: any method, raw bodies and headers, a chosen loopback source address. */
import { Agent, request } from 'node:http';

export interface SoakRequest {
  method: string;
  /** Base URL, e.g. http://127.0.0.1:46080 */
  base: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Loopback source address: the product rate-limits per client address. */
  from?: string;
  timeoutMs?: number;
}

export interface SoakResponse {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
  /** Set when no HTTP answer came back (refused, reset, timed out). */
  error?: string;
}

const agents = new Map<string, Agent>();
const IDLE_CLOSE_MS = 4_000;
function agentFor(from: string) {
  let agent = agents.get(from);
  if (!agent) {
    // An idle pooled connection is closed before the server's keep-alive timeout (Node's 5 s on the lean API
    // server) can close it under a request just being sent on it, as a load balancer's idle timeout sits
    // below its backends'.
    agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_CLOSE_MS, localAddress: from } as never);
    agents.set(from, agent);
  }
  return agent;
}

const inFlightTo = new Map<string, number>();
/** Requests sent to `base` and not answered yet: a load balancer's open connections to a backend it drains. */
export const inFlight = (base: string) => inFlightTo.get(base) ?? 0;

export function send(req: SoakRequest): Promise<SoakResponse> {
  const started = performance.now();
  const url = new URL(req.path, req.base);
  inFlightTo.set(req.base, inFlight(req.base) + 1);
  let answered = false;
  return new Promise((resolve) => {
    const done = (r: Omit<SoakResponse, 'ms'>) => {
      if (!answered) inFlightTo.set(req.base, inFlight(req.base) - 1);
      answered = true;
      resolve({ ...r, ms: performance.now() - started });
    };
    let outgoing: ReturnType<typeof request>;
    try {
      outgoing = request(
        {
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: req.method,
          headers: {
            ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}),
            ...req.headers,
          },
          agent: agentFor(req.from ?? '127.0.0.1'),
          timeout: req.timeoutMs ?? 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => done({ status: 0, headers: new Headers(), text: '', error: e.message }));
          res.on('end', () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
            }
            done({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
    } catch (error) {
      // Header values Node refuses to send: not a product answer, and not counted.
      done({ status: -1, headers: new Headers(), text: '', error: (error as Error).message });
      return;
    }
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (e) => done({ status: 0, headers: new Headers(), text: '', error: e.message }));
    outgoing.end(req.body);
  });
}

export function closeAgents() {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export const json = <T = any>(text: string): T | undefined => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};
