import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const chainType = pgEnum('chain_type', ['EVM', 'UTXO', 'COSMOS', 'OTHER']);
export const sourceType = pgEnum('source_type', ['BRIDGE', 'EXCHANGE', 'SERVICE']);

export interface ChainProviderIds {
  thorchain?: string;
  chainflip?: string;
  relay?: number;
  lifi?: number;
}

export const chains = pgTable(
  'chains',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull().unique(),
    name: text('name').notNull(),
    shortname: text('shortname').notNull(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    type: chainType('type').notNull(),
    image: text('image').notNull(),
    active: boolean('active').notNull().default(true),
    nativeSymbol: text('native_symbol').notNull(),
    nativeDecimals: integer('native_decimals').notNull(),
    explorerTxUrl: text('explorer_tx_url').notNull(),
    explorerAddressUrl: text('explorer_address_url').notNull(),
    bech32Prefix: text('bech32_prefix'),
    providerIds: jsonb('provider_ids').$type<ChainProviderIds>().notNull().default({}),
    sortOrder: integer('sort_order').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('chains_listing_idx').on(t.active, t.sortOrder, t.id)],
);

export const assets = pgTable(
  'assets',
  {
    id: serial('id').primaryKey(),
    chainKey: text('chain_key')
      .notNull()
      .references(() => chains.key, { onUpdate: 'cascade' }),
    symbol: text('symbol').notNull(),
    name: text('name').notNull(),
    /** Canonical form: EIP-55 for EVM, `native` for non-EVM natives. */
    address: text('address').notNull(),
    /** Lookup form: lowercase for EVM, the canonical form otherwise. */
    addressKey: text('address_key').notNull(),
    decimals: integer('decimals').notNull(),
    image: text('image').notNull(),
    isNative: boolean('is_native').notNull().default(false),
    active: boolean('active').notNull().default(true),
    priceUsd: numeric('price_usd', { precision: 38, scale: 18 }),
    priceSource: text('price_source'),
    priceUpdatedAt: timestamp('price_updated_at', { withTimezone: true, mode: 'date' }),
    sortOrder: integer('sort_order').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('assets_chain_address_key_idx').on(t.chainKey, t.addressKey),
    index('assets_listing_idx').on(t.active, t.sortOrder, t.id),
    index('assets_chain_listing_idx').on(t.chainKey, t.active, t.sortOrder, t.id),
    index('assets_symbol_idx').on(sql`lower(${t.symbol})`),
  ],
);

export const sources = pgTable('sources', {
  key: text('key').primaryKey(),
  name: text('name').notNull(),
  image: text('image').notNull(),
  type: sourceType('type').notNull(),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
