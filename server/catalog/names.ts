import { chains } from '../../drizzle/seed/catalog-data';
import { sourcesSeed } from '../../drizzle/seed/sources-data';

/**
 * The names people read for chain and provider keys: the catalog seed, which the seed writes into the
 * chains and sources tables the API serves, so every page says "Bitcoin" and "LI.FI", never `bitcoin` or `LIFI`.
 */
const CHAIN_NAMES = new Map(chains.map((c) => [c.key, c.name]));
const EVM_CHAIN_NAMES = new Map(chains.filter((c) => c.type === 'EVM').map((c) => [c.chainId, c.name]));
const PROVIDER_NAMES = new Map(sourcesSeed.map((s) => [s.key, s.name]));

/** A chain's name by its key; a key the catalog does not know is shown as it is. */
export const chainName = (key: string) => CHAIN_NAMES.get(key) ?? key;

/** An EVM chain's name by its chain id, or undefined. */
export const evmChainName = (chainId: number) => EVM_CHAIN_NAMES.get(chainId);

/** A provider's name by its key; a key the catalog does not know is shown as it is. */
export const providerName = (key: string) => PROVIDER_NAMES.get(key) ?? key;
