import type { CatalogSnapshot } from '../catalog/snapshot';
import type { ProviderKey } from '../providers/types';
import type { StatusFields } from './status-fields';

type TransactionRow = StatusFields;

export interface ExplorerUrls {
  inbound?: string;
  outbound?: string;
  provider?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** A catalog template (`https://etherscan.io/tx/{hash}`) filled with one hash. */
export function explorerTxUrl(template: string | undefined, hash: string | null | undefined): string | undefined {
  return template && hash ? template.replace('{hash}', encodeURIComponent(hash)) : undefined;
}

/** Each provider's own tracker page, from what it tracks the swap by; absent where it has none. */
const PROVIDER_TRACKERS: Record<ProviderKey, (tx: TransactionRow) => string | undefined> = {
  THORCHAIN: (tx) => {
    const hash = tx.inboundHash || tx.hash;
    return hash ? `https://track.ninerealms.com/${encodeURIComponent(hash.replace(/^0x/i, ''))}` : undefined;
  },
  CHAINFLIP: (tx) => {
    const channelId = text(tx.trackingContext.channelId);
    return channelId ? `https://scan.chainflip.io/channels/${encodeURIComponent(channelId)}` : undefined;
  },
  RELAY: (tx) => {
    const requestId = text(tx.trackingContext.requestId);
    return requestId ? `https://relay.link/transaction/${encodeURIComponent(requestId)}` : undefined;
  },
  LIFI: (tx) => {
    const hash = tx.inboundHash || tx.hash;
    return hash ? `https://scan.li.fi/tx/${encodeURIComponent(hash)}` : undefined;
  },
};

/**
 * Block-explorer links for the swap's two sides and the provider's tracker. The outbound transaction
 * lives where the provider said it landed; without a word from it, a refund pays the sender back on
 * the source chain.
 */
export function explorerUrlsOf(catalog: CatalogSnapshot, tx: TransactionRow): ExplorerUrls {
  const src = catalog.chain(tx.srcChain)?.explorerTxUrl;
  const outboundChain = text(tx.trackingContext.outboundChain) ?? (tx.status === 'REFUND' ? tx.srcChain : tx.dstChain);
  const urls: ExplorerUrls = {
    inbound: explorerTxUrl(src, tx.inboundHash || tx.hash),
    outbound: explorerTxUrl(catalog.chain(outboundChain)?.explorerTxUrl, tx.outboundHash),
    provider: PROVIDER_TRACKERS[tx.provider as ProviderKey]?.(tx),
  };
  return Object.fromEntries(Object.entries(urls).filter(([, url]) => url !== undefined));
}
