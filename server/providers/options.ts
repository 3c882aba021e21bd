import type { ProviderConfig } from '../config';

export interface AdapterOptions {
  config: ProviderConfig;
  baseUrl: string;
  /** Live mode: the upstream hosts this adapter may call. */
  allowedHosts?: string[];
  /** Where an adapter says what a quote's answer has no place for, e.g. why a route was left out. */
  log?: { debug(fields: Record<string, unknown>, message: string): void };
  /** The clock status mappings judge how long an upstream state has held by (tests inject one). */
  now?: () => number;
  /** Charges the provider's budget once per upstream HTTP request (where it is counted per request). */
  beforeRequest?: (path: string) => Promise<void>;
  /** THORChain's Midgard, which lists a depositor's swaps (absent: deposits are looked up by hash only). */
  midgardUrl?: string;
}
