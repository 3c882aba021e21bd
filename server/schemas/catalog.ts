import { z } from 'zod';
import { paginationQuery, searchParam } from './common';

export const CHAIN_TYPES = ['EVM', 'COSMOS', 'UTXO', 'OTHER'] as const;
export const SOURCE_TYPES = ['BRIDGE', 'EXCHANGE', 'SERVICE'] as const;

export const chainKeyParam = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64)
  .regex(/^[a-z0-9-]+$/, 'must be a chain key such as "ethereum"');

export const listChainsQuery = z.object({
  ...paginationQuery(100, 1000),
  query: searchParam.optional(),
  type: z.enum(CHAIN_TYPES, { error: `type must be one of ${CHAIN_TYPES.join(', ')}` }).optional(),
});

export const listAssetsQuery = z.object({
  ...paginationQuery(100, 1000),
  query: searchParam.optional(),
  chain: chainKeyParam.optional(),
});

export const listSourcesQuery = z.object({
  ...paginationQuery(20, 300),
  type: z.enum(SOURCE_TYPES, { error: `type must be one of ${SOURCE_TYPES.join(', ')}` }).optional(),
});

export type ListChainsQuery = z.output<typeof listChainsQuery>;
export type ListAssetsQuery = z.output<typeof listAssetsQuery>;
export type ListSourcesQuery = z.output<typeof listSourcesQuery>;

export const chainSchema = z.object({
  key: z.string(),
  name: z.string(),
  shortname: z.string(),
  chainId: z.number(),
  image: z.string(),
  type: z.enum(CHAIN_TYPES),
  active: z.boolean(),
});

export const assetSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  address: z.string(),
  image: z.string(),
  chain: z.string(),
  isNative: z.boolean(),
  decimals: z.number(),
});

export const sourceSchema = z.object({
  key: z.string(),
  name: z.string(),
  image: z.string(),
  type: z.enum(SOURCE_TYPES),
  active: z.boolean(),
});

export type Chain = z.infer<typeof chainSchema>;
export type Asset = z.infer<typeof assetSchema>;
export type Source = z.infer<typeof sourceSchema>;
