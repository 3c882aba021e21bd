import { listAssets, listChains, listSources } from '../catalog/list';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import type { Asset, Chain, Source } from '../schemas/catalog';
import { listAssetsQuery, listChainsQuery, listSourcesQuery } from '../schemas/catalog';
import { getTransactionExecution, type TransactionExecution } from './execution';
import { getTransactionStatus, type TransactionStatus } from './status';
import { getTransactionTimeline, type TimelineEvent } from './timeline';

/**
 * Everything the public /tx/<id> page shows, read on the server so its first HTML already says the
 * swap's real state: what the status, execution, timeline and catalog endpoints would answer.
 */
export interface TrackerPage {
  status: TransactionStatus;
  execution: TransactionExecution;
  timeline: TimelineEvent[];
  chains: Chain[];
  sources: Source[];
  /** The source chain's tokens the swapper's instructions name: what the swap spends and the gas token. */
  sourceAssets: { src: Asset | null; native: Asset | null };
  /** Server clock when it was read, in ms. */
  readAt: number;
}

/** An id that names no transaction (unknown, or not an id at all) reads as none; other failures are thrown. */
const isNoSuchTransaction = (error: unknown) =>
  error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_ERROR');

/** The tracker page's data for `transactionId`; null when no transaction has that id. */
export async function readTrackerPage(ctx: AppContext, transactionId: string): Promise<TrackerPage | null> {
  const query = { transactionId };
  let status: TransactionStatus;
  try {
    status = (await getTransactionStatus(ctx, query)).data;
  } catch (error) {
    if (isNoSuchTransaction(error)) return null;
    throw error;
  }
  const srcChain = status.transaction.srcAsset.chain;
  const [execution, timeline, chains, sources, assets] = await Promise.all([
    getTransactionExecution(ctx, query),
    getTransactionTimeline(ctx, query),
    listChains(ctx, listChainsQuery.parse({ perPage: '1000' })),
    listSources(ctx, listSourcesQuery.parse({ perPage: '300' })),
    srcChain ? listAssets(ctx, listAssetsQuery.parse({ chain: srcChain, perPage: '1000' })) : null,
  ]);
  const contract = status.transaction.srcAsset.contract?.toLowerCase();
  const srcAssets = assets?.items ?? [];
  const native = srcAssets.find((a) => a.isNative) ?? null;
  return {
    status,
    execution,
    timeline,
    chains: chains.items,
    sources: sources.items,
    sourceAssets: {
      src: contract ? (srcAssets.find((a) => a.address.toLowerCase() === contract) ?? null) : native,
      native,
    },
    readAt: Date.now(),
  };
}
