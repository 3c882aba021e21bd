import 'server-only';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { PROVIDER_KEYS, type ProviderKey } from './providers/keys';
import { placeholderProblem } from './secret-strength';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();
const isAddressOrCidr = (entry: string) => ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry);
/** `a, b,c` as `['a', 'b', 'c']`; unset or empty, `[]`. */
const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );
const optionalUrl = z.preprocess((value) => (value === '' ? undefined : value), z.string().min(1).optional());

/** A setting: the environment variable it is read from, and how. */
interface Setting<S extends z.ZodType = z.ZodType> {
  env: string;
  schema: S;
}
const from = <S extends z.ZodType>(env: string, schema: S): Setting<S> => ({ env, schema });

interface SettingTree {
  [key: string]: Setting | SettingTree;
}
type Resolved<T> = T extends Setting<infer S> ? z.output<S> : { [K in keyof T]: Resolved<T[K]> };

/**
 * Every setting, once: where it sits in `Config`, the variable it comes from, its type and default.
 * The env schema and the `Config` type are both derived from this tree.
 */
const SETTINGS = {
  env: from('NODE_ENV', z.enum(['development', 'production', 'test']).default('development')),
  host: from('HOST', z.string().default('127.0.0.1')),
  port: from('PORT', positiveInt.default(3000)),
  apiPort: from('API_PORT', positiveInt.default(3100)),
  publicBaseUrl: from('PUBLIC_BASE_URL', z.url().optional()),
  databaseUrl: from('DATABASE_URL', z.string().default('postgres://postgres:postgres@127.0.0.1:5432/switchyard')),
  databasePoolMax: from('DATABASE_POOL_MAX', positiveInt.default(10)),
  databaseConnectTimeoutMs: from('DATABASE_CONNECT_TIMEOUT_MS', positiveInt.default(1000)),
  /** A streaming replica for status, history, dashboard and stream catch-up reads; unset: the primary serves them. */
  databaseReadUrl: from('DATABASE_READ_URL', optionalUrl),
  /** Past this lag the replica serves no reads (the primary does) and readiness reports it behind. */
  databaseReadMaxLagMs: from('DATABASE_READ_MAX_LAG_MS', positiveInt.default(5_000)),
  /** `transaction`: a transaction-pooling proxy (PgBouncer) sits in front of Postgres, so nothing is prepared by name. */
  databasePooler: from('DATABASE_POOLER', z.enum(['none', 'transaction']).default('none')),
  /** A direct connection for `LISTEN`, which a transaction pooler cannot carry; unset: DATABASE_URL when not pooled. */
  databaseListenUrl: from('DATABASE_LISTEN_URL', optionalUrl),
  redisUrl: from('REDIS_URL', z.string().default('redis://127.0.0.1:6379')),
  /** Seed nodes of a Redis Cluster (`host:port,host:port`); when set, REDIS_URL is not used. */
  redisClusterNodes: from(
    'REDIS_CLUSTER_NODES',
    commaList.pipe(z.array(z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port'))),
  ),
  redisPrefix: from(
    'REDIS_PREFIX',
    z
      .string()
      .regex(/^[a-z0-9_-]+$/i)
      .default('sy'),
  ),
  dependencyTimeoutMs: from('DEPENDENCY_TIMEOUT_MS', positiveInt.default(900)),
  logLevel: from('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  providersMode: from('PROVIDERS_MODE', z.enum(['simulated', 'live']).default('simulated')),
  simulatorHost: from('SIMULATOR_HOST', z.string().default('127.0.0.1')),
  simulatorBasePort: from('SIMULATOR_BASE_PORT', positiveInt.default(4700)),
  /** Simulated mode: a swap nobody reports a deposit for deposits by itself this long after execute; unset: never. */
  simulatorAutoDepositMs: from('SIMULATOR_AUTO_DEPOSIT_MS', z.coerce.number().int().min(0).optional()),
  providerDeadlineMs: from('PROVIDER_DEADLINE_MS', positiveInt.default(2500)),
  executeDeadlineMs: from('EXECUTE_DEADLINE_MS', positiveInt.default(8000)),
  catalogCacheMs: from('CATALOG_CACHE_MS', z.coerce.number().int().min(0).default(30_000)),
  /** Upstream quote calls: identical previews shared for a few seconds, part of each budget kept back. */
  quoteBudget: {
    cacheMs: from('QUOTE_CACHE_MS', z.coerce.number().int().min(0).max(60_000).default(3_000)),
    reservePercent: from('QUOTE_BUDGET_RESERVE_PERCENT', z.coerce.number().int().min(0).max(90).default(20)),
    clientSharePercent: from('QUOTE_CLIENT_SHARE_PERCENT', z.coerce.number().int().min(1).max(100).default(25)),
  },
  lockTtlMs: from('LOCK_TTL_MS', positiveInt.default(60_000)),
  lockExpiryMarginMs: from('LOCK_EXPIRY_MARGIN_MS', z.coerce.number().int().min(0).default(10_000)),
  defaultSlippageBps: from('DEFAULT_SLIPPAGE_BPS', z.coerce.number().int().min(0).max(10_000).default(100)),
  maxBodyBytes: from('MAX_BODY_BYTES', positiveInt.default(64 * 1024)),
  /** Bodies to tRPC, Better Auth and pages: refused past this before Next (or anything) buffers them. */
  dashboardMaxBodyBytes: from('DASHBOARD_MAX_BODY_BYTES', positiveInt.default(1024 * 1024)),
  requestDeadlineMs: from('REQUEST_DEADLINE_MS', positiveInt.default(15_000)),
  /** Public history reads: no client and no data shape may hold the database past these. */
  publicReads: {
    /** Each statement of a public history read; shorter than REQUEST_DEADLINE_MS. */
    statementTimeoutMs: from('READ_STATEMENT_TIMEOUT_MS', positiveInt.default(5_000)),
    /** History reads one client address may have running at once; beyond it, 429. */
    perClient: from('HISTORY_READS_PER_CLIENT', positiveInt.default(3)),
    /** History reads running at once in a process: kept below DATABASE_POOL_MAX so other reads find a connection. */
    maxConcurrent: from('HISTORY_READS_MAX', positiveInt.default(6)),
    /**
     * How long a history read waits for one of those places before it answers 503. A waiter holds no
     * connection, only its request (at most HISTORY_READS_PER_CLIENT per client), so the wait can outlast
     * a busy process' stalls: at 500 ms a CPU-starved process shed valid reads it would have served.
     */
    waitMs: from('HISTORY_READ_WAIT_MS', positiveInt.default(2_000)),
  },
  /** Per client address, in the web and lean servers: open connections, and the time a request has to arrive whole. */
  connections: {
    perClient: from('MAX_CONNECTIONS_PER_CLIENT', positiveInt.default(64)),
    requestTimeoutMs: from('REQUEST_BODY_TIMEOUT_MS', positiveInt.default(30_000)),
  },
  /** Bodies to Better Auth from a client without a session (sign-in, sign-up). */
  authMaxBodyBytes: from('AUTH_MAX_BODY_BYTES', positiveInt.default(16 * 1024)),
  /** Procedures one dashboard request may batch; more are refused before any runs. */
  trpcMaxBatch: from('TRPC_MAX_BATCH', positiveInt.max(250).default(20)),
  /** Referral codes one affiliate may own. */
  maxReferralCodesPerAffiliate: from('MAX_REFERRAL_CODES_PER_AFFILIATE', positiveInt.default(50)),
  /** How long a process drains after SIGTERM or SIGINT before it exits anyway. */
  shutdownTimeoutMs: from('SHUTDOWN_TIMEOUT_MS', positiveInt.default(20_000)),
  trustProxy: from('TRUST_PROXY', bool.default(false)),
  /** Better Auth's signing secret; required in production, a fixed development value otherwise. */
  authSecret: from('AUTH_SECRET', z.string().min(32, 'must be at least 32 characters').optional()),
  affiliateSignupEnabled: from('AFFILIATE_SIGNUP_ENABLED', bool.default(true)),
  /** Sign-in (and sign-up) attempts per client address per window (Better Auth's limiter); on in production only. */
  signInRateLimit: {
    enabled: from('AUTH_SIGN_IN_RATE_LIMIT_ENABLED', bool.optional()),
    rule: from(
      'AUTH_SIGN_IN_RATE_LIMIT',
      z
        .string()
        .regex(/^\d+\/\d+$/, 'must be "attempts/seconds", e.g. "3/10"')
        .default('3/10')
        .transform((value) => {
          const [max, window] = value.split('/').map(Number);
          return { max: max as number, window: window as number };
        }),
    ),
  },
  metricsToken: from('METRICS_TOKEN', z.string().min(16, 'must be at least 16 characters').optional()),
  /** OpenTelemetry traces go to this OTLP/HTTP collector (`<endpoint>/v1/traces`); unset: tracing is off. */
  tracing: {
    endpoint: from(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      z.preprocess((value) => (value === '' ? undefined : value), z.url().optional()),
    ),
    /** Share of new traces kept (`parentbased_traceidratio`'s argument); a trusted caller's sampled `traceparent` is always kept. */
    sampleRatio: from('OTEL_TRACES_SAMPLER_ARG', z.coerce.number().min(0).max(1).default(1)),
    /** Client addresses (as the rate limiter sees them) whose incoming `traceparent` is continued; anyone else's is a link at most. */
    trustedParents: from(
      'OTEL_TRUSTED_PARENTS',
      commaList.pipe(
        z.array(z.string().refine(isAddressOrCidr, 'must be an address or a CIDR range, e.g. 10.0.0.0/8')),
      ),
    ),
  },
  rateLimits: {
    windowSeconds: from('RATE_LIMIT_WINDOW_SECONDS', positiveInt.default(60)),
    perClient: {
      catalog: from('RATE_LIMIT_CATALOG', positiveInt.default(600)),
      quote: from('RATE_LIMIT_QUOTE', positiveInt.default(120)),
      execute: from('RATE_LIMIT_EXECUTE', positiveInt.default(60)),
      transactions: from('RATE_LIMIT_TRANSACTIONS', positiveInt.default(300)),
      /** Dashboard (tRPC) procedure calls per signed-in user, each call of a batch counted. */
      dashboard: from('RATE_LIMIT_DASHBOARD', positiveInt.default(600)),
    },
    /** Keys the hash that stands for a client address in stored rate-limit hits; required in production (AUTH_SECRET elsewhere). */
    hashKey: from('RATE_LIMIT_HASH_KEY', z.string().min(16).optional()),
  },
  idempotencyTtlSeconds: from('IDEMPOTENCY_TTL_SECONDS', positiveInt.default(24 * 3600)),
  /** Swaps whose deposit never comes: the window when the provider names none, and the grace after any window. */
  deposits: {
    windowMs: from('DEPOSIT_WINDOW_MS', positiveInt.default(3600_000)),
    expiryGraceMs: from('DEPOSIT_EXPIRY_GRACE_MS', z.coerce.number().int().min(0).default(3600_000)),
  },
  /** Observed route times (p50/p90 of settled swaps) and lateness: see README, "How route times are computed". */
  routeTimes: {
    windowDays: from('ROUTE_TIME_WINDOW_DAYS', positiveInt.max(365).default(30)),
    /** Fewer settled swaps than this on a route (and on its asset pair): the provider's estimate is shown instead. */
    minSamples: from('ROUTE_TIME_MIN_SAMPLES', positiveInt.default(20)),
    /** How long a process keeps the route times it read before reading them again. */
    cacheMs: from('ROUTE_TIME_CACHE_MS', z.coerce.number().int().min(0).default(60_000)),
    /** A pending swap is late past its start plus the route's p90 times this. */
    lateFactor: from('LATE_FACTOR', z.coerce.number().min(1).max(100).default(1.5)),
  },
  /** History answers only when scoped to wallets or one transaction, never the whole ledger. */
  historyRequireScope: from('HISTORY_REQUIRE_SCOPE', bool.default(false)),
  /** Status streams: open at once per client address, how long one lives, and its comment heartbeat. */
  streams: {
    maxPerClient: from('STREAM_MAX_PER_CLIENT', positiveInt.default(10)),
    maxLifetimeMs: from('STREAM_MAX_LIFETIME_MS', positiveInt.default(30 * 60_000)),
    heartbeatMs: from('STREAM_HEARTBEAT_MS', positiveInt.default(15_000)),
  },
  worker: {
    healthPort: from('WORKER_HEALTH_PORT', z.coerce.number().int().min(0).max(65535).default(3300)),
    trackingConcurrency: from('TRACKING_CONCURRENCY', positiveInt.default(20)),
    lockDurationMs: from('WORKER_LOCK_DURATION_MS', positiveInt.default(8_000)),
    /** How often workers look for jobs whose lock lapsed (a worker died) and hand them back. */
    stalledIntervalMs: from('WORKER_STALLED_INTERVAL_MS', positiveInt.default(4_000)),
    sweepIntervalMs: from('SWEEP_INTERVAL_MS', positiveInt.default(30_000)),
    rateLimitRollupIntervalMs: from('RATE_LIMIT_ROLLUP_INTERVAL_MS', positiveInt.default(60_000)),
    priceRefreshIntervalMs: from('PRICE_REFRESH_INTERVAL_MS', positiveInt.default(10 * 60_000)),
    pruneIntervalMs: from('PRUNE_INTERVAL_MS', positiveInt.default(3600_000)),
    queueSampleIntervalMs: from('QUEUE_SAMPLE_INTERVAL_MS', positiveInt.default(60_000)),
    /** Folds swap deltas and rolls settled hours of locks and provider calls into the dashboard's rollups. */
    rollupIntervalMs: from('ROLLUP_INTERVAL_MS', positiveInt.default(60_000)),
    sweepGraceMs: from('SWEEP_GRACE_MS', z.coerce.number().int().min(0).default(60_000)),
    staleAfterMs: from('STALE_AFTER_MS', positiveInt.default(6 * 3600_000)),
    refundWatchMs: from(
      'REFUND_WATCH_MS',
      z.coerce
        .number()
        .int()
        .min(0)
        .default(6 * 3600_000),
    ),
    executeClaimTimeoutMs: from('EXECUTE_CLAIM_TIMEOUT_MS', positiveInt.default(120_000)),
    minPollIntervalMs: from('TRACKING_MIN_INTERVAL_MS', positiveInt.default(5_000)),
    /** Multiplies every polling delay; below 1 only for simulated end-to-end runs. */
    timeScale: from('TRACKING_TIME_SCALE', z.coerce.number().positive().max(1).default(1)),
  },
  /** How long the dashboard's sample tables and the webhook delivery log keep their rows. */
  retention: {
    providerCallsDays: from('PROVIDER_CALLS_RETENTION_DAYS', positiveInt.default(7)),
    rateLimitHitsDays: from('RATE_LIMIT_HITS_RETENTION_DAYS', positiveInt.default(35)),
    queueDepthSamplesDays: from('QUEUE_DEPTH_SAMPLES_RETENTION_DAYS', positiveInt.default(7)),
    webhookDeliveriesDays: from('WEBHOOK_DELIVERIES_RETENTION_DAYS', positiveInt.default(30)),
    /** Locks never executed; their counts live on in the rollups. Executed locks stay with their swaps. */
    unexecutedLocksDays: from('UNEXECUTED_LOCKS_RETENTION_DAYS', positiveInt.default(30)),
  },
  webhooks: {
    /** Development and tests only: lets endpoints point at loopback and private addresses, over plain http too. */
    allowPrivateTargets: from('WEBHOOK_ALLOW_PRIVATE_TARGETS', bool.default(false)),
    /** The first retry's delay; each later one doubles it. */
    retryBaseDelayMs: from('WEBHOOK_RETRY_BASE_DELAY_MS', positiveInt.default(180_000)),
    /** An endpoint whose deliveries have all failed for this long is disabled. */
    disableAfterDays: from('WEBHOOK_DISABLE_AFTER_DAYS', positiveInt.default(5)),
    concurrency: from('WEBHOOK_CONCURRENCY', positiveInt.default(10)),
    /** One attempt's whole life: name lookup, connect, sending, and the answer's status line and headers. */
    attemptTimeoutMs: from('WEBHOOK_TIMEOUT_MS', positiveInt.max(60_000).default(10_000)),
    /** Attempts one endpoint may have in flight across every worker (one until it has answered promptly). */
    endpointConcurrency: from('WEBHOOK_ENDPOINT_CONCURRENCY', positiveInt.max(50).default(2)),
    /** An endpoint's pause after a failed attempt; it doubles with each failure in a row, up to 10 minutes. */
    endpointBackoffMs: from('WEBHOOK_ENDPOINT_BACKOFF_MS', positiveInt.default(5_000)),
    maxEndpointsPerOwner: from('WEBHOOK_MAX_ENDPOINTS_PER_OWNER', positiveInt.max(1000).default(5)),
    redeliveriesPerMinute: from('WEBHOOK_REDELIVERIES_PER_MINUTE', positiveInt.default(20)),
  },
  upstreamAllowedHosts: from('UPSTREAM_ALLOWED_HOSTS', commaList),
  breaker: {
    threshold: from('PROVIDER_BREAKER_THRESHOLD', positiveInt.default(5)),
    halfOpenAfterMs: from('PROVIDER_BREAKER_HALF_OPEN_MS', positiveInt.default(30_000)),
    statusRetries: from('PROVIDER_STATUS_RETRIES', z.coerce.number().int().min(0).max(5).default(2)),
  },
} satisfies SettingTree;

/** Each provider's settings, read from `<KEY>_ENABLED`, `<KEY>_URL` and so on. */
const providerSettings = (key: ProviderKey) => ({
  enabled: from(`${key}_ENABLED`, bool.default(true)),
  baseUrl: from(`${key}_URL`, z.url().optional()),
  apiKey: from(`${key}_API_KEY`, z.string().min(1).optional()),
  /** Falls back to PROVIDER_DEADLINE_MS. */
  deadlineMs: from(`${key}_DEADLINE_MS`, positiveInt.optional()),
  /** Requests allowed upstream per window, across the fleet; undefined means the documented default. */
  rateLimit: from(
    `${key}_RATE_LIMIT`,
    z
      .string()
      .regex(/^\d+\/\d+$/, 'must be "requests/seconds", e.g. "50/60"')
      .transform((value) => {
        const [points, windowSeconds] = value.split('/').map(Number);
        return { points: points as number, windowSeconds: windowSeconds as number };
      })
      .optional(),
  ),
});

type ProviderSettings = Resolved<ReturnType<typeof providerSettings>>;
/** A provider's settings with its key and the deadline it falls back to; tests build these by hand. */
export type ProviderConfig = Omit<ProviderSettings, 'deadlineMs' | 'rateLimit'> & {
  key: ProviderKey;
  deadlineMs: number;
  rateLimit?: ProviderSettings['rateLimit'];
};

const ALL_SETTINGS = {
  ...SETTINGS,
  providers: Object.fromEntries(PROVIDER_KEYS.map((key) => [key, providerSettings(key)])) as Record<
    ProviderKey,
    ReturnType<typeof providerSettings>
  >,
};

const isSetting = (node: Setting | SettingTree): node is Setting =>
  typeof (node as Setting).env === 'string' && (node as Setting).schema instanceof z.ZodType;

function settingsOf(tree: SettingTree): Setting[] {
  return Object.values(tree).flatMap((node) => (isSetting(node) ? [node] : settingsOf(node)));
}

function resolve<T extends SettingTree>(tree: T, env: Record<string, unknown>): Resolved<T> {
  return Object.fromEntries(
    Object.entries(tree).map(([key, node]) => [key, isSetting(node) ? env[node.env] : resolve(node, env)]),
  ) as Resolved<T>;
}

/** Every environment variable the configuration reads, with its schema (the README documents each). */
export const envSchema = z.object(
  Object.fromEntries(settingsOf(ALL_SETTINGS).map((setting) => [setting.env, setting.schema])),
);

export { PROVIDER_KEYS, type ProviderKey };

export class ConfigError extends Error {}

const RANDOM_VALUE_HINT = 'set it to a random value (e.g. `openssl rand -hex 32`)';

const developmentSecret = (name: string) => `switchyard-development-only-${name.toLowerCase()}-not-secret`;

/** In production a secret must be set and be one: no sample value, and the rate-limit hash key a key of its own. */
function productionSecret(name: string, value: string | undefined, authSecret?: string): string {
  const problem =
    value === undefined
      ? 'is required in production'
      : value === authSecret
        ? 'is AUTH_SECRET again; it must be a key of its own'
        : placeholderProblem(value);
  if (problem) throw new ConfigError(`Invalid configuration: ${name} ${problem}; ${RANDOM_VALUE_HINT}`);
  return value as string;
}

/** The parsed environment as `Config`: the settings tree, plus the values that fall back on others. */
export const configSchema = envSchema.transform((env) => {
  const settings = resolve(ALL_SETTINGS, env);
  // The sweep takes a claim this old for a crash's and hands the lock back: a live execute must never look like one.
  if (settings.worker.executeClaimTimeoutMs <= settings.executeDeadlineMs) {
    throw new ConfigError(
      `Invalid configuration: EXECUTE_CLAIM_TIMEOUT_MS (${settings.worker.executeClaimTimeoutMs}) must be longer than EXECUTE_DEADLINE_MS (${settings.executeDeadlineMs}), or the sweep hands back the claim of an execute still waiting for its provider`,
    );
  }
  const providers = Object.fromEntries(
    PROVIDER_KEYS.map((key) => {
      const provider = settings.providers[key];
      return [key, { ...provider, key, deadlineMs: provider.deadlineMs ?? settings.providerDeadlineMs }];
    }),
  ) as Record<ProviderKey, ProviderConfig>;
  const production = settings.env === 'production';
  const { authSecret } = settings;
  const { hashKey } = settings.rateLimits;
  return {
    ...settings,
    authSecret: production
      ? productionSecret('AUTH_SECRET', authSecret)
      : (authSecret ?? developmentSecret('AUTH_SECRET')),
    rateLimits: {
      ...settings.rateLimits,
      hashKey: production
        ? productionSecret('RATE_LIMIT_HASH_KEY', hashKey, authSecret)
        : (hashKey ?? authSecret ?? developmentSecret('RATE_LIMIT_HASH_KEY')),
    },
    providers,
  };
});

export type Config = z.output<typeof configSchema>;

export function parseConfig(source: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

let loaded: Config | undefined;

/** The process-wide configuration, read from the environment exactly once. */
export function loadConfig(): Config {
  loaded ??= parseConfig(process.env);
  return loaded;
}
