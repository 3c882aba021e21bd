import type { ProviderConfig } from '../config';

export interface AdapterOptions {
  config: ProviderConfig;
  baseUrl: string;
  /** Live mode: the upstream hosts this adapter may call. */
  allowedHosts?: string[];
}
