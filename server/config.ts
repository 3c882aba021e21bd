import { z } from 'zod';
import { PROVIDER_KEYS, type ProviderKey } from './providers/keys';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();

const providerEnv = (key: string) => ({
  [`${key}_ENABLED`]: bool.default(true),
  [`${key}_URL`]: z.url().optional(),
  [`${key}_API_KEY`]: z.string().min(1).optional(),
  [`${key}_DEADLINE_MS`]: positiveInt.optional(),
  [`${key}_RATE_LIMIT`]: z
    .string()
    .regex(/^\d+\/\d+$/, 'must be "requests/seconds", e.g. "50/60"')
    .optional(),
});

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: positiveInt.default(3000),
  API_PORT: positiveInt.default(3100),
  PUBLIC_BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().default('postgres://postgres:postgres@127.0.0.1:5432/switchyard'),
  DATABASE_POOL_MAX: positiveInt.default(10),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt.default(1000),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/i)
    .default('sy'),
  DEPENDENCY_TIMEOUT_MS: positiveInt.default(900),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PROVIDERS_MODE: z.enum(['simulated', 'live']).default('simulated'),
  SIMULATOR_HOST: z.string().default('127.0.0.1'),
  SIMULATOR_BASE_PORT: positiveInt.default(4700),
  PROVIDER_DEADLINE_MS: positiveInt.default(2500),
  EXECUTE_DEADLINE_MS: positiveInt.default(8000),
  CATALOG_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
  QUOTE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  QUOTE_BUDGET_RESERVE_PERCENT: z.coerce.number().int().min(0).max(90).default(20),
  QUOTE_CLIENT_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(25),
  LOCK_TTL_MS: positiveInt.default(60_000),
  LOCK_EXPIRY_MARGIN_MS: z.coerce.number().int().min(0).default(10_000),
  DEFAULT_SLIPPAGE_BPS: z.coerce.number().int().min(0).max(10_000).default(100),
  MAX_BODY_BYTES: positiveInt.default(64 * 1024),
  REQUEST_DEADLINE_MS: positiveInt.default(15_000),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(20_000),
  TRUST_PROXY: bool.default(false),
  PROVIDER_BREAKER_THRESHOLD: positiveInt.default(5),
  PROVIDER_BREAKER_HALF_OPEN_MS: positiveInt.default(30_000),
  PROVIDER_STATUS_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  AFFILIATE_SIGNUP_ENABLED: bool.default(true),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
  RATE_LIMIT_CATALOG: positiveInt.default(600),
  RATE_LIMIT_QUOTE: positiveInt.default(120),
  RATE_LIMIT_EXECUTE: positiveInt.default(60),
  RATE_LIMIT_TRANSACTIONS: positiveInt.default(300),
  RATE_LIMIT_HASH_KEY: z.string().min(16).optional(),
  IDEMPOTENCY_TTL_SECONDS: positiveInt.default(24 * 3600),
  HISTORY_REQUIRE_SCOPE: bool.default(false),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3300),
  TRACKING_CONCURRENCY: positiveInt.default(20),
  WORKER_LOCK_DURATION_MS: positiveInt.default(30_000),
  SWEEP_INTERVAL_MS: positiveInt.default(30_000),
  RATE_LIMIT_ROLLUP_INTERVAL_MS: positiveInt.default(60_000),
  PRICE_REFRESH_INTERVAL_MS: positiveInt.default(10 * 60_000),
  PRUNE_INTERVAL_MS: positiveInt.default(3600_000),
  PROVIDER_CALLS_RETENTION_DAYS: positiveInt.default(7),
  RATE_LIMIT_HITS_RETENTION_DAYS: positiveInt.default(35),
  WEBHOOK_DELIVERIES_RETENTION_DAYS: positiveInt.default(30),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  WEBHOOK_RETRY_BASE_DELAY_MS: positiveInt.default(180_000),
  WEBHOOK_DISABLE_AFTER_DAYS: positiveInt.default(5),
  WEBHOOK_CONCURRENCY: positiveInt.default(10),
  SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(60_000),
  STALE_AFTER_MS: positiveInt.default(6 * 3600_000),
  REFUND_WATCH_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(6 * 3600_000),
  EXECUTE_CLAIM_TIMEOUT_MS: positiveInt.default(120_000),
  TRACKING_MIN_INTERVAL_MS: positiveInt.default(5_000),
  TRACKING_TIME_SCALE: z.coerce.number().positive().max(1).default(1),
  UPSTREAM_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    ),
  ...providerEnv('THORCHAIN'),
  ...providerEnv('RELAY'),
  ...providerEnv('CHAINFLIP'),
  ...providerEnv('LIFI'),
  LIFI_INVALID_GIVE_UP_MS: positiveInt.default(6 * 3600_000),
});

export type Env = z.infer<typeof envSchema>;

export { PROVIDER_KEYS, type ProviderKey };

export interface ProviderConfig {
  key: ProviderKey;
  enabled: boolean;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  deadlineMs: number;
  /** Requests allowed upstream per window, across the fleet; undefined means the documented default. */
  rateLimit?: { points: number; windowSeconds: number };
}

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  apiPort: number;
  publicBaseUrl: string | undefined;
  databaseUrl: string;
  databasePoolMax: number;
  databaseConnectTimeoutMs: number;
  redisUrl: string;
  redisPrefix: string;
  dependencyTimeoutMs: number;
  logLevel: Env['LOG_LEVEL'];
  providersMode: Env['PROVIDERS_MODE'];
  simulatorHost: string;
  simulatorBasePort: number;
  providerDeadlineMs: number;
  executeDeadlineMs: number;
  catalogCacheMs: number;
  /** Upstream quote calls: identical previews shared for a few seconds, part of each budget kept back. */
  quoteBudget: { cacheMs: number; reservePercent: number; clientSharePercent: number };
  lockTtlMs: number;
  lockExpiryMarginMs: number;
  defaultSlippageBps: number;
  maxBodyBytes: number;
  requestDeadlineMs: number;
  /** How long a process drains after SIGTERM or SIGINT before it exits anyway. */
  shutdownTimeoutMs: number;
  trustProxy: boolean;
  /** Better Auth's signing secret; required in production, a fixed development value otherwise. */
  authSecret: string;
  affiliateSignupEnabled: boolean;
  metricsToken: string | undefined;
  rateLimits: {
    windowSeconds: number;
    perClient: Record<'catalog' | 'quote' | 'execute' | 'transactions', number>;
    /** Keys the hash that stands for a client address in stored rate-limit hits. */
    hashKey: string;
  };
  idempotencyTtlSeconds: number;
  /** History answers only when scoped to wallets or one transaction, never the whole ledger. */
  historyRequireScope: boolean;
  worker: {
    healthPort: number;
    trackingConcurrency: number;
    lockDurationMs: number;
    sweepIntervalMs: number;
    rateLimitRollupIntervalMs: number;
    priceRefreshIntervalMs: number;
    pruneIntervalMs: number;
    sweepGraceMs: number;
    staleAfterMs: number;
    refundWatchMs: number;
    executeClaimTimeoutMs: number;
    minPollIntervalMs: number;
    /** Multiplies every polling delay; below 1 only for simulated end-to-end runs. */
    timeScale: number;
  };
  /** How long the dashboard's sample tables and the webhook delivery log keep their rows. */
  retention: { providerCallsDays: number; rateLimitHitsDays: number; webhookDeliveriesDays: number };
  webhooks: {
    /** Development and tests only: lets endpoints point at loopback and private addresses, over plain http too. */
    allowPrivateTargets: boolean;
    /** The first retry's delay; each later one doubles it. */
    retryBaseDelayMs: number;
    /** An endpoint whose deliveries have all failed for this long is disabled. */
    disableAfterDays: number;
    concurrency: number;
  };
  upstreamAllowedHosts: string[];
  providers: Record<ProviderKey, ProviderConfig>;
  /** LI.FI's INVALID status is waited out until a swap is this old, then it counts as failed. */
  lifiInvalidGiveUpMs: number;
  breaker: { threshold: number; halfOpenAfterMs: number; statusRetries: number };
}

function parseBudget(value: string | undefined) {
  if (!value) return undefined;
  const [points, windowSeconds] = value.split('/').map(Number);
  return { points: points as number, windowSeconds: windowSeconds as number };
}

export class ConfigError extends Error {}

function developmentSecret(nodeEnv: Env['NODE_ENV'], name: string): string {
  if (nodeEnv === 'production') throw new ConfigError(`Invalid configuration: ${name} is required in production`);
  return `switchyard-development-only-${name.toLowerCase()}-not-secret`;
}

export function parseConfig(source: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const env = parsed.data as Env & Record<string, unknown>;
  const providers = Object.fromEntries(
    PROVIDER_KEYS.map((key) => [
      key,
      {
        key,
        enabled: env[`${key}_ENABLED`] as boolean,
        baseUrl: env[`${key}_URL`] as string | undefined,
        apiKey: env[`${key}_API_KEY`] as string | undefined,
        deadlineMs: (env[`${key}_DEADLINE_MS`] as number | undefined) ?? env.PROVIDER_DEADLINE_MS,
        rateLimit: parseBudget(env[`${key}_RATE_LIMIT`] as string | undefined),
      },
    ]),
  ) as Record<ProviderKey, ProviderConfig>;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    apiPort: env.API_PORT,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    databaseConnectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    dependencyTimeoutMs: env.DEPENDENCY_TIMEOUT_MS,
    logLevel: env.LOG_LEVEL,
    providersMode: env.PROVIDERS_MODE,
    simulatorHost: env.SIMULATOR_HOST,
    simulatorBasePort: env.SIMULATOR_BASE_PORT,
    providerDeadlineMs: env.PROVIDER_DEADLINE_MS,
    executeDeadlineMs: env.EXECUTE_DEADLINE_MS,
    catalogCacheMs: env.CATALOG_CACHE_MS,
    quoteBudget: {
      cacheMs: env.QUOTE_CACHE_MS,
      reservePercent: env.QUOTE_BUDGET_RESERVE_PERCENT,
      clientSharePercent: env.QUOTE_CLIENT_SHARE_PERCENT,
    },
    lockTtlMs: env.LOCK_TTL_MS,
    lockExpiryMarginMs: env.LOCK_EXPIRY_MARGIN_MS,
    defaultSlippageBps: env.DEFAULT_SLIPPAGE_BPS,
    maxBodyBytes: env.MAX_BODY_BYTES,
    requestDeadlineMs: env.REQUEST_DEADLINE_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    trustProxy: env.TRUST_PROXY,
    authSecret: env.AUTH_SECRET ?? developmentSecret(env.NODE_ENV, 'AUTH_SECRET'),
    affiliateSignupEnabled: env.AFFILIATE_SIGNUP_ENABLED,
    metricsToken: env.METRICS_TOKEN,
    rateLimits: {
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      perClient: {
        catalog: env.RATE_LIMIT_CATALOG,
        quote: env.RATE_LIMIT_QUOTE,
        execute: env.RATE_LIMIT_EXECUTE,
        transactions: env.RATE_LIMIT_TRANSACTIONS,
      },
      hashKey: env.RATE_LIMIT_HASH_KEY ?? env.AUTH_SECRET ?? developmentSecret(env.NODE_ENV, 'RATE_LIMIT_HASH_KEY'),
    },
    idempotencyTtlSeconds: env.IDEMPOTENCY_TTL_SECONDS,
    historyRequireScope: env.HISTORY_REQUIRE_SCOPE,
    worker: {
      healthPort: env.WORKER_HEALTH_PORT,
      trackingConcurrency: env.TRACKING_CONCURRENCY,
      lockDurationMs: env.WORKER_LOCK_DURATION_MS,
      sweepIntervalMs: env.SWEEP_INTERVAL_MS,
      rateLimitRollupIntervalMs: env.RATE_LIMIT_ROLLUP_INTERVAL_MS,
      priceRefreshIntervalMs: env.PRICE_REFRESH_INTERVAL_MS,
      pruneIntervalMs: env.PRUNE_INTERVAL_MS,
      sweepGraceMs: env.SWEEP_GRACE_MS,
      staleAfterMs: env.STALE_AFTER_MS,
      refundWatchMs: env.REFUND_WATCH_MS,
      executeClaimTimeoutMs: env.EXECUTE_CLAIM_TIMEOUT_MS,
      minPollIntervalMs: env.TRACKING_MIN_INTERVAL_MS,
      timeScale: env.TRACKING_TIME_SCALE,
    },
    retention: {
      providerCallsDays: env.PROVIDER_CALLS_RETENTION_DAYS,
      rateLimitHitsDays: env.RATE_LIMIT_HITS_RETENTION_DAYS,
      webhookDeliveriesDays: env.WEBHOOK_DELIVERIES_RETENTION_DAYS,
    },
    webhooks: {
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retryBaseDelayMs: env.WEBHOOK_RETRY_BASE_DELAY_MS,
      disableAfterDays: env.WEBHOOK_DISABLE_AFTER_DAYS,
      concurrency: env.WEBHOOK_CONCURRENCY,
    },
    upstreamAllowedHosts: env.UPSTREAM_ALLOWED_HOSTS,
    providers,
    lifiInvalidGiveUpMs: env.LIFI_INVALID_GIVE_UP_MS,
    breaker: {
      threshold: env.PROVIDER_BREAKER_THRESHOLD,
      halfOpenAfterMs: env.PROVIDER_BREAKER_HALF_OPEN_MS,
      statusRetries: env.PROVIDER_STATUS_RETRIES,
    },
  };
}

let loaded: Config | undefined;

/** The process-wide configuration, read from the environment exactly once. */
export function loadConfig(): Config {
  loaded ??= parseConfig(process.env);
  return loaded;
}
