import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process; every web and API instance is scraped on its own. */
export const registry = new Registry();

export const httpRequests = new Counter({
  name: 'switchyard_http_requests_total',
  help: 'Public API requests by route, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'switchyard_http_request_duration_seconds',
  help: 'Public API latency by route',
  labelNames: ['route', 'method'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const providerDuration = new Histogram({
  name: 'switchyard_provider_call_duration_seconds',
  help: 'Upstream provider calls by provider, stage and outcome',
  labelNames: ['provider', 'stage', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 5, 10],
  registers: [registry],
});

export const providerErrors = new Counter({
  name: 'switchyard_provider_errors_total',
  help: 'Upstream provider failures by provider and stage',
  labelNames: ['provider', 'stage'] as const,
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'switchyard_queue_jobs',
  help: 'BullMQ jobs by queue and state',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});
export const trackingLag = new Gauge({
  name: 'switchyard_tracking_lag_seconds',
  help: 'Age of the most overdue status poll (0 when none is overdue)',
  registers: [registry],
});
export const transactionsGauge = new Gauge({
  name: 'switchyard_transactions',
  help: 'Transactions still pending, and those flagged stale',
  labelNames: ['state'] as const,
  registers: [registry],
});
export const providerCircuitOpen = new Gauge({
  name: 'switchyard_provider_circuit_open',
  help: "1 while this process's circuit breaker for an enabled provider is open or half-open",
  labelNames: ['provider'] as const,
  registers: [registry],
});
export const providerQuoteErrorRatio = new Gauge({
  name: 'switchyard_provider_quote_error_ratio',
  help: 'Share of quote calls that failed over the last hour, "no route" answers not counted',
  labelNames: ['provider'] as const,
  registers: [registry],
});
