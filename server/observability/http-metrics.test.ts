import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HttpRequestTally, TalliedDurationHistogram, TalliedRequestCounter } from './http-metrics';

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const COUNT = { name: 'x_requests_total', help: 'requests', labelNames: ['route', 'method', 'status'] as const };
const DURATION = { name: 'x_request_duration_seconds', help: 'latency', labelNames: ['route', 'method'] as const };

/** The same requests counted by prom-client's own metrics and by the tally, each in a registry of its own. */
function bothWays(requests: [string, string, number, number][]) {
  const own = new Registry();
  const tallied = new Registry();
  const counter = new Counter({ ...COUNT, registers: [own] });
  const histogram = new Histogram({ ...DURATION, buckets: BOUNDS, registers: [own] });
  const tally = new HttpRequestTally(BOUNDS);
  new TalliedRequestCounter(tally, { ...COUNT, registers: [tallied] });
  new TalliedDurationHistogram(tally, { ...DURATION, registers: [tallied] });
  for (const [route, method, status, seconds] of requests) {
    counter.inc({ route, method, status: String(status) });
    histogram.observe({ route, method }, seconds);
    tally.record(route, method, status, seconds);
  }
  return { own, tallied };
}

const REQUESTS: [string, string, number, number][] = [
  ['/api/v1/transaction/status', 'GET', 200, 0.003],
  ['/api/v1/transaction/status', 'GET', 200, 0.005],
  ['/api/v1/transaction/status', 'GET', 404, 0.7],
  ['/api/v1/quote', 'POST', 200, 12],
  ['/api/v1/transaction/status', 'GET', 200, 0.0051],
  ['/api/v1/quote', 'POST', 429, 0.01],
];

describe('the HTTP request tally', () => {
  it("exposes exactly what prom-client's own counter and histogram expose for the same requests", async () => {
    const { own, tallied } = bothWays(REQUESTS);
    const text = await tallied.metrics();
    expect(text).toBe(await own.metrics());
    expect(text).toContain('x_requests_total{route="/api/v1/transaction/status",method="GET",status="200"} 3');
    expect(text).toContain(
      'x_request_duration_seconds_bucket{le="0.005",route="/api/v1/transaction/status",method="GET"} 2',
    );
    expect(text).toContain('x_request_duration_seconds_bucket{le="+Inf",route="/api/v1/quote",method="POST"} 2');
    expect(await tallied.getMetricsAsJSON()).toEqual(await own.getMetricsAsJSON());
  });

  it('starts again from nothing when the registry is reset', async () => {
    const { own, tallied } = bothWays(REQUESTS);
    own.resetMetrics();
    tallied.resetMetrics();
    expect(await tallied.metrics()).toBe(await own.metrics());
    expect(await tallied.metrics()).not.toContain('route=');
  });
});
