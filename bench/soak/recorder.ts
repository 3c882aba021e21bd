/** Every answer the soak gets, by endpoint and class, and the outage windows chaos opens. */
import { API_ROUTES } from '../../server/http/routes';
import { Histogram } from '../histogram';
import { type SoakRequest, type SoakResponse, send } from './http';

export interface Outage {
  kind: string;
  startedAt: number;
  /** When the product answered ready again (undefined while it has not). */
  recoveredAt?: number;
  /** The window closes this long after recovery. */
  endsAt?: number;
  requestsDuring: number;
  unavailableDuring: number;
  /** 503s without Retry-After: a client is not told when to come back. */
  unavailableWithoutRetryAfter: number;
  serverErrorsDuring: number;
  /** What clients saw during the window, by status (0: no answer). */
  byStatus: Record<string, number>;
  /** The first few requests of the window that got no answer, and why. */
  noAnswerSamples: string[];
}

const KNOWN = new Set([...Object.keys(API_ROUTES), '/api/health', '/api/health/ready']);
const PROBES = new Set(['/api/health', '/api/health/ready']);

export class Recorder {
  readonly outages: Outage[] = [];
  readonly byClass: Record<string, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, noAnswer: 0 };
  readonly byStatus: Record<string, number> = {};
  private readonly latency = new Map<string, Histogram>();
  serverErrorsDuringOutage = 0;
  serverErrorsOutsideOutage = 0;
  unavailableDuringOutage = 0;
  noAnswerDuringOutage = 0;
  noAnswerOutsideOutage = 0;
  probeUnavailable = 0;
  readonly serverErrorSamples: string[] = [];
  /** Every 5xx outside an outage, grouped by endpoint, status, code and message, with when they came. */
  readonly serverErrorsOutsideByKind = new Map<string, { count: number; firstAt: number; lastAt: number }>();
  /** Why requests outside any outage got no answer: what to look at when the count is not small. */
  readonly noAnswerOutsideOutageSamples: string[] = [];

  openOutage(kind: string): Outage {
    const outage: Outage = {
      kind,
      startedAt: Date.now(),
      requestsDuring: 0,
      unavailableDuring: 0,
      unavailableWithoutRetryAfter: 0,
      serverErrorsDuring: 0,
      byStatus: {},
      noAnswerSamples: [],
    };
    this.outages.push(outage);
    return outage;
  }

  closeOutage(outage: Outage, graceMs: number) {
    outage.recoveredAt = Date.now();
    outage.endsAt = outage.recoveredAt + graceMs;
  }

  /** The outage a request that started at `startedAt` and ended at `endedAt` overlapped, if any. */
  outageAt(startedAt: number, endedAt: number): Outage | undefined {
    return this.outages.find((o) => startedAt <= (o.endsAt ?? Number.POSITIVE_INFINITY) && endedAt >= o.startedAt);
  }

  async request(req: SoakRequest): Promise<SoakResponse> {
    const startedAt = Date.now();
    const res = await send(req);
    if (res.status === -1) return res;
    this.record(req, res, startedAt);
    return res;
  }

  private record(req: SoakRequest, res: SoakResponse, startedAt: number) {
    const pathname = req.path.split('?')[0]?.replace(/\/+$/, '') ?? '';
    const endpoint = KNOWN.has(pathname) ? `${req.method} ${pathname}` : 'other';
    const outage = this.outageAt(startedAt, Date.now());
    if (outage) {
      outage.requestsDuring += 1;
      outage.byStatus[res.status] = (outage.byStatus[res.status] ?? 0) + 1;
    }
    if (res.status === 0) {
      this.byClass.noAnswer = (this.byClass.noAnswer ?? 0) + 1;
      const sample = `${req.method} ${req.base} ${req.path.slice(0, 80)}: ${res.error} after ${Math.round(res.ms)} ms`;
      if (outage) {
        this.noAnswerDuringOutage += 1;
        if (outage.noAnswerSamples.length < 10) outage.noAnswerSamples.push(sample);
      } else {
        this.noAnswerOutsideOutage += 1;
        if (this.noAnswerOutsideOutageSamples.length < 20) this.noAnswerOutsideOutageSamples.push(sample);
      }
      return;
    }
    const cls = `${Math.floor(res.status / 100)}xx`;
    this.byClass[cls] = (this.byClass[cls] ?? 0) + 1;
    this.byStatus[res.status] = (this.byStatus[res.status] ?? 0) + 1;
    let histogram = this.latency.get(endpoint);
    if (!histogram) {
      histogram = new Histogram();
      this.latency.set(endpoint, histogram);
    }
    histogram.record(res.ms * 1000);
    if (res.status < 500) return;
    // Readiness answering 503 is the probe doing its job, not a product error.
    if (PROBES.has(pathname) && res.status === 503) {
      this.probeUnavailable += 1;
      return;
    }
    if (outage) {
      this.serverErrorsDuringOutage += 1;
      outage.serverErrorsDuring += 1;
      if (res.status === 503) {
        this.unavailableDuringOutage += 1;
        outage.unavailableDuring += 1;
        if (!res.headers.get('retry-after')) outage.unavailableWithoutRetryAfter += 1;
      }
    } else {
      this.serverErrorsOutsideOutage += 1;
      const kind = `${endpoint} → ${res.status} ${errorOf(res.text)}`;
      const seen = this.serverErrorsOutsideByKind.get(kind) ?? { count: 0, firstAt: startedAt, lastAt: startedAt };
      seen.count += 1;
      seen.lastAt = startedAt;
      this.serverErrorsOutsideByKind.set(kind, seen);
      if (this.serverErrorSamples.length < 20) {
        this.serverErrorSamples.push(
          `${req.method} ${req.path.slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`,
        );
      }
    }
  }

  /** p50/p99 (ms) and count per endpoint. */
  latencies() {
    const out: Record<string, { count: number; p50Ms: number; p99Ms: number }> = {};
    for (const [endpoint, h] of [...this.latency.entries()].sort()) {
      const s = h.summary();
      out[endpoint] = { count: s.count, p50Ms: round(s.p50Ms), p99Ms: round(s.p99Ms) };
    }
    return out;
  }
}

/** The code and message of an error envelope (either interface's), else the body's start. */
function errorOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string }; code?: string; message?: string };
    const error = body.error ?? body;
    return `${error.code ?? '?'}: ${(error.message ?? '').slice(0, 120)}`;
  } catch {
    return text.slice(0, 120);
  }
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
