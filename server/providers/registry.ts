import { type Config, PROVIDER_KEYS, type ProviderKey } from '../config';
import { createChainflipAdapter } from './chainflip/adapter';
import { createLifiAdapter } from './lifi/adapter';
import type { AdapterOptions } from './options';
import { createRelayAdapter } from './relay/adapter';
import { createThorchainAdapter } from './thorchain/adapter';
import type { ProviderAdapter } from './types';

const FACTORIES: Record<ProviderKey, (options: AdapterOptions) => ProviderAdapter> = {
  THORCHAIN: createThorchainAdapter,
  RELAY: createRelayAdapter,
  CHAINFLIP: createChainflipAdapter,
  LIFI: createLifiAdapter,
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

export interface ProviderRegistry {
  /** Enabled adapters in a fixed order. */
  list(): ProviderAdapter[];
  get(key: string): ProviderAdapter | undefined;
  isKnown(key: string): boolean;
}

export function createProviderRegistry(config: Config): ProviderRegistry {
  const adapters = new Map<string, ProviderAdapter>();
  for (const key of PROVIDER_KEYS) {
    const providerConfig = config.providers[key];
    if (!providerConfig.enabled) continue;
    adapters.set(
      key,
      FACTORIES[key]({
        config: providerConfig,
        baseUrl: providerBaseUrl(config, key),
        allowedHosts:
          config.providersMode === 'live' ? [...LIVE_ALLOWED_HOSTS[key], ...config.upstreamAllowedHosts] : undefined,
      }),
    );
  }
  return {
    list: () => [...adapters.values()],
    get: (key) => adapters.get(key),
    isKnown: (key) => (PROVIDER_KEYS as readonly string[]).includes(key),
  };
}
