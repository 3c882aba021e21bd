import { z } from 'zod';
import type { ProviderConfig } from '../../config';
import { createUpstream } from '../http';
import { tokenSchema } from './wire';

const tokensResponse = z.looseObject({ tokens: z.record(z.string(), z.array(tokenSchema)) });

/** `GET /v1/tokens?chains=…`: LI.FI's token list with `priceUSD`, keyed `chainId:address` (EVM lowercased). */
export async function fetchLifiPrices(
  options: { config: ProviderConfig; baseUrl: string; allowedHosts?: string[] },
  chainIds: number[],
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const upstream = createUpstream({
    provider: 'LIFI',
    baseUrl: options.baseUrl,
    allowedHosts: options.allowedHosts,
    auth: options.config.apiKey ? { header: 'x-lifi-api-key', value: options.config.apiKey } : undefined,
    maxResponseBytes: 20 * 1024 * 1024,
  });
  const { data } = await upstream.request({
    path: 'v1/tokens',
    query: { chains: chainIds.join(',') },
    schema: tokensResponse,
    signal,
  });
  const prices = new Map<string, string>();
  for (const [chainId, tokens] of Object.entries(data.tokens)) {
    for (const token of tokens) {
      const price = token.priceUSD;
      if (typeof price === 'string' && /^\d+(\.\d+)?$/.test(price) && Number(price) > 0) {
        const address = token.address.startsWith('0x') ? token.address.toLowerCase() : token.address;
        prices.set(`${chainId}:${address}`, price);
      }
    }
  }
  return prices;
}
