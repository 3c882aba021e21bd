import type { Redis } from 'ioredis';
import { type Config, PROVIDER_KEYS, type ProviderKey } from '../config';
import { type BudgetWindow, createRequestBudget, LIFI_REQUESTS_PER_MINUTE, lifiBudgetPlan } from './budget';
import { createChainflipAdapter } from './chainflip/adapter';
import { createLifiAdapter } from './lifi/adapter';
import type { AdapterOptions } from './options';
import { createRelayAdapter } from './relay/adapter';
import { type BreakerLog, type ResilientAdapter, withResilience } from './resilience';
import { createThorchainAdapter } from './thorchain/adapter';
import type { ProviderAdapter } from './types';

const FACTORIES: Record<ProviderKey, (options: AdapterOptions, config: Config) => ProviderAdapter> = {
  THORCHAIN: createThorchainAdapter,
  RELAY: createRelayAdapter,
  CHAINFLIP: (options) => createChainflipAdapter(options),
  LIFI: (options) => createLifiAdapter(options),
};

/** The real upstreams, used in live mode when no URL is configured. */
export const LIVE_BASE_URLS: Record<ProviderKey, string> = {
  THORCHAIN: 'https://thornode.ninerealms.com',
  RELAY: 'https://api.relay.link',
  CHAINFLIP: 'https://chainflip-swap.chainflip.io',
  LIFI: 'https://li.quest',
};

/** Hosts live mode may call; an operator adds more through UPSTREAM_ALLOWED_HOSTS. */
export const LIVE_ALLOWED_HOSTS: Record<ProviderKey, string[]> = {
  THORCHAIN: [
    'thornode.ninerealms.com',
    'thornode.thorswap.net',
    'thornode.thorchain.liquify.com',
    'mayanode.mayachain.info',
    'midgard.ninerealms.com',
  ],
  RELAY: ['api.relay.link', 'api.testnets.relay.link'],
  CHAINFLIP: ['chainflip-swap.chainflip.io', 'chainflip-swap-perseverance.chainflip.io'],
  LIFI: ['li.quest', 'staging.li.quest'],
};

/** Simulated mode: each provider's simulator listens on its own loopback port. */
export const simulatorPort = (config: Config, key: ProviderKey) =>
  config.simulatorBasePort + PROVIDER_KEYS.indexOf(key);

export function providerBaseUrl(config: Config, key: ProviderKey): string {
  const configured = config.providers[key].baseUrl;
  if (configured) return configured;
  return config.providersMode === 'live'
    ? LIVE_BASE_URLS[key]
    : `http://${config.simulatorHost}:${simulatorPort(config, key)}`;
}

/** THORChain's Midgard: Nine Realms' beside its node live, none beside a node of the operator's own, the simulator offline. */
export function midgardUrl(config: Config, key: ProviderKey): string | undefined {
  if (key !== 'THORCHAIN') return undefined;
  if (config.providersMode !== 'live') return providerBaseUrl(config, key);
  return config.providers[key].baseUrl ? undefined : 'https://midgard.ninerealms.com';
}

/**
 * Each provider's published limits, the budget live mode keeps to without an operator override:
 * THORNode's public guidance, Relay /quote without and with a key, Chainflip's quote limiter,
 * LI.FI /advanced/routes without a key (75 per 2 h) and with one.
 */
export function documentedBudget(key: ProviderKey, hasApiKey: boolean) {
  switch (key) {
    case 'THORCHAIN':
      return { points: 100, windowSeconds: 60 };
    case 'RELAY':
      return hasApiKey ? { points: 600, windowSeconds: 60 } : { points: 50, windowSeconds: 60 };
    case 'CHAINFLIP':
      return { points: 100, windowSeconds: 60 };
    case 'LIFI':
      return hasApiKey ? { points: 100, windowSeconds: 60 } : { points: 75, windowSeconds: 7200 };
  }
}

const SIMULATED_BUDGET = { points: 1_000_000, windowSeconds: 60 };

/**
 * LI.FI's limits differ by endpoint, so its budget is counted per HTTP request in the window of the
 * endpoint asked (status reads in the per-minute one, never the 2-hour quote window).
 */
function requestBudgetOf(key: ProviderKey, config: Config, quoteBudget: BudgetWindow, redis?: Redis) {
  if (key !== 'LIFI') return undefined;
  const live = config.providersMode === 'live';
  const plan = lifiBudgetPlan(
    quoteBudget,
    config.providers[key].rateLimit ?? (live ? LIFI_REQUESTS_PER_MINUTE : quoteBudget),
  );
  return createRequestBudget(key, plan, config.quoteBudget.reservePercent, redis, config.redisPrefix);
}

export interface ProviderRegistry {
  /** Enabled adapters in a fixed order. */
  list(): ResilientAdapter[];
  /** The upstream budget each enabled provider is held to, shared by the fleet. */
  budget(key: ProviderKey): { points: number; windowSeconds: number } | undefined;
  get(key: string): ResilientAdapter | undefined;
  isKnown(key: string): boolean;
  /** The connection the upstream budgets are counted on (absent: counted in memory). */
  redis?: Redis;
}

export function createProviderRegistry(
  config: Config,
  redis?: Redis,
  log?: NonNullable<AdapterOptions['log']> & BreakerLog,
): ProviderRegistry {
  const adapters = new Map<string, ResilientAdapter>();
  const budgets = new Map<ProviderKey, { points: number; windowSeconds: number }>();
  for (const key of PROVIDER_KEYS) {
    const providerConfig = config.providers[key];
    if (!providerConfig.enabled) continue;
    const budget =
      providerConfig.rateLimit ??
      (config.providersMode === 'live' ? documentedBudget(key, !!providerConfig.apiKey) : SIMULATED_BUDGET);
    budgets.set(key, budget);
    const requestBudget = requestBudgetOf(key, config, budget, redis);
    const adapter = FACTORIES[key](
      {
        config: providerConfig,
        baseUrl: providerBaseUrl(config, key),
        allowedHosts:
          config.providersMode === 'live' ? [...LIVE_ALLOWED_HOSTS[key], ...config.upstreamAllowedHosts] : undefined,
        log,
        beforeRequest: requestBudget?.charge,
        midgardUrl: midgardUrl(config, key),
      },
      config,
    );
    adapters.set(
      key,
      withResilience(
        adapter,
        {
          breakerThreshold: config.breaker.threshold,
          halfOpenAfterMs: config.breaker.halfOpenAfterMs,
          statusRetries: config.breaker.statusRetries,
          budget,
          reservedPoints: Math.ceil((budget.points * config.quoteBudget.reservePercent) / 100),
          chargedPerRequest: requestBudget !== undefined,
        },
        redis,
        config.redisPrefix,
        log,
      ),
    );
  }
  return {
    list: () => [...adapters.values()],
    get: (key) => adapters.get(key),
    budget: (key) => budgets.get(key),
    isKnown: (key) => (PROVIDER_KEYS as readonly string[]).includes(key),
    redis,
  };
}
