import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HttpRequestTally, TalliedDurationHistogram, TalliedRequestCounter } from './http-metrics';

/** One registry per process; every web and API instance is scraped on its own. */
export const registry = new Registry();

/** Public API requests: counted per request in plain numbers, exported by the two metrics below. */
export const httpRequests = new HttpRequestTally([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

new TalliedRequestCounter(httpRequests, {
  name: 'switchyard_http_requests_total',
  help: 'Public API requests by route, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

new TalliedDurationHistogram(httpRequests, {
  name: 'switchyard_http_request_duration_seconds',
  help: 'Public API latency by route',
  labelNames: ['route', 'method'] as const,
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
export const lateSwaps = new Gauge({
  name: 'switchyard_late_swaps',
  help: "Pending swaps past their route's p90 times LATE_FACTOR, by provider",
  labelNames: ['provider'] as const,
  registers: [registry],
});
export const transactionStreamsOpen = new Gauge({
  name: 'switchyard_transaction_streams_open',
  help: "Status streams open in this process, each holding one of its client's stream slots",
  registers: [registry],
});
const perProviderGauge = (name: string, help: string) =>
  new Gauge({ name, help, labelNames: ['provider'] as const, registers: [registry] });

export const providerCircuitOpen = perProviderGauge(
  'switchyard_provider_circuit_open',
  "1 while either of this process's circuit breakers for an enabled provider (quote and execute; status reads) is open or half-open",
);
export const providerQuoteErrorRatio = perProviderGauge(
  'switchyard_provider_quote_error_ratio',
  'Share of quote calls that failed over the last hour, "no route" answers not counted',
);

/** The readiness probe's verdict, computed at scrape: 1 when Postgres and Redis both answer in time. */
export const readyGauge = new Gauge({
  name: 'switchyard_ready',
  help: "1 when this process's readiness probe would answer 200 (Postgres and Redis answer within DEPENDENCY_TIMEOUT_MS)",
  registers: [registry],
});
export const dependencyUp = new Gauge({
  name: 'switchyard_dependency_up',
  help: 'Whether each dependency answered the readiness check within DEPENDENCY_TIMEOUT_MS',
  labelNames: ['dependency'] as const,
  registers: [registry],
});
export const replicaLag = new Gauge({
  name: 'switchyard_database_replica_lag_seconds',
  help: 'How long ago the oldest WAL the read replica (DATABASE_READ_URL) has not replayed was written on the primary; -1 while it cannot be reached',
  registers: [registry],
});
export const queueWorkers = new Gauge({
  name: 'switchyard_queue_workers',
  help: 'BullMQ workers connected to each queue, across every worker process',
  labelNames: ['queue'] as const,
  registers: [registry],
});
/** `task`, not `job`: Prometheus gives every scraped series the target's own `job` label. */
export const maintenanceLastSuccess = new Gauge({
  name: 'switchyard_maintenance_last_success_timestamp_seconds',
  help: 'When each scheduled maintenance job last completed (Unix seconds; 0 when it never has)',
  labelNames: ['task'] as const,
  registers: [registry],
});
export const maintenanceInterval = new Gauge({
  name: 'switchyard_maintenance_interval_seconds',
  help: 'How often each scheduled maintenance job is configured to run',
  labelNames: ['task'] as const,
  registers: [registry],
});
export const webhookEndpoints = new Gauge({
  name: 'switchyard_webhook_endpoints',
  help: 'Webhook endpoints: enabled, failing (enabled, with every attempt failing since failing_since), disabled',
  labelNames: ['state'] as const,
  registers: [registry],
});
export const webhookFailingSeconds = new Gauge({
  name: 'switchyard_webhook_failing_seconds',
  help: 'How long the longest-failing enabled webhook endpoint has failed every attempt (0 when none is failing)',
  registers: [registry],
});

/** Dashboard sign-ins refused (wrong password, unknown or deactivated account): a burst is someone guessing. */
export const signInFailures = new Counter({
  name: 'switchyard_sign_in_failures_total',
  help: 'Dashboard sign-in attempts refused',
  registers: [registry],
});
