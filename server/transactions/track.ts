import { eq } from 'drizzle-orm';
import { transactionEvents, transactions } from '../../drizzle/schema';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import type { TxStatus } from '../providers/types';
import type { TrackBody } from '../schemas/transactions';
import { hashKey } from './keys';
import { findTransaction } from './lookup';
import { isFinal } from './transitions';
import { parseTxHash } from './tx-hash';

export interface TrackResult {
  transaction: { id: string; hash: string; inboundHash: string; provider: string; status: TxStatus };
  final: boolean;
  tracking: boolean;
}

/**
 * Records a client-reported source hash and polls at once. Provider metadata from the client is
 * never read: tracking uses only the context stored at execute (spec §4.8 rule 1).
 */
export async function trackTransaction(ctx: AppContext, body: TrackBody): Promise<TrackResult> {
  let tx = await findTransaction(ctx, { transactionId: body.transactionId });
  const summary = () => ({
    transaction: { id: tx.id, hash: tx.hash, inboundHash: tx.inboundHash, provider: tx.provider, status: tx.status },
    final: isFinal(tx.status),
  });
  if (isFinal(tx.status)) return { ...summary(), tracking: false };

  let parsed: ReturnType<typeof parseTxHash> | undefined;
  if (body.txHash !== undefined) {
    const chain = (await getCatalog(ctx)).chain(tx.srcChain);
    parsed = parseTxHash(chain ?? { key: tx.srcChain, type: 'EVM' }, body.txHash);
    if (!parsed.ok) {
      throw new AppError('VALIDATION_ERROR', parsed.message, {
        problems: [{ code: 'VALIDATION_ERROR', field: 'txHash', message: parsed.message }],
      });
    }
  }

  const adapter = ctx.providers.get(tx.provider);
  const newHash = parsed?.ok ? parsed.hash : undefined;
  const trackable = !!adapter && adapter.canTrack(tx.trackingContext, newHash ?? tx.hash);

  tx = await ctx.db.transaction(async (db) => {
    const [locked] = await db.select().from(transactions).where(eq(transactions.id, tx.id)).for('update');
    if (!locked) throw notFound('Transaction', 'transactionId');
    const patch: Partial<typeof transactions.$inferInsert> = { updatedAt: new Date() };
    if (newHash && newHash !== locked.hash) {
      patch.hash = newHash;
      patch.hashKey = hashKey(newHash);
      if (!locked.inboundHash) {
        patch.inboundHash = newHash;
        patch.inboundHashKey = hashKey(newHash);
      }
      if (parsed?.ok && parsed.kind === 'ton-boc') {
        patch.trackingContext = {
          ...locked.trackingContext,
          tonMessageHash: parsed.hash,
          tonNormalizedHash: parsed.normalizedHash,
        };
      }
    }
    if (trackable && !isFinal(locked.status)) patch.nextPollAt = new Date();
    const [updated] = await db.update(transactions).set(patch).where(eq(transactions.id, locked.id)).returning();
    await db.insert(transactionEvents).values({
      transactionId: locked.id,
      type: 'track',
      message: newHash ? `Client reported hash ${newHash}` : 'Client asked to refresh tracking',
      data: {
        txHash: newHash ?? null,
        ...(parsed?.ok && parsed.kind === 'ton-boc' ? { normalizedHash: parsed.normalizedHash, fromBoc: true } : {}),
      },
    });
    return updated ?? locked;
  });

  if (trackable) {
    await ctx.tracking?.schedule(tx.id, 0).catch((error) => {
      ctx.log.warn({ err: error, transactionId: tx.id }, 'could not schedule tracking; the sweep will pick it up');
    });
  }
  return { ...summary(), tracking: trackable };
}
