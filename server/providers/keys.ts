/** The routing providers Switchyard knows, in simulator port order. Pure: client components import it too. */
export const PROVIDER_KEYS = ['THORCHAIN', 'RELAY', 'CHAINFLIP', 'LIFI'] as const;
export type ProviderKey = (typeof PROVIDER_KEYS)[number];
