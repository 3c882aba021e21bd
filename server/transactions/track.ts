import { eq } from 'drizzle-orm';
import { transactionEvents, transactions } from '../../drizzle/schema';
import { providerName } from '../catalog/names';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { broadcastToSimulatedChain } from '../providers/simulated-chain';
import type { ProviderAdapter, TxStatus } from '../providers/types';
import type { TrackBody } from '../schemas/transactions';
import { claimedHash } from '../tracking/hash-claims';
import { askProvider } from '../tracking/poll';
import { reopenExpiredSwap } from '../tracking/reopen';
import { afterTransactionChange } from './changes';
import { hashKey } from './keys';
import { findTransaction } from './lookup';
import { isFinal, verifies } from './transitions';
import { type ParsedTxHash, parseTxHash } from './tx-hash';

export interface TrackResult {
  transaction: { id: string; hash: string; inboundHash: string; provider: string; status: TxStatus };
  final: boolean;
  tracking: boolean;
}

type TransactionRow = typeof transactions.$inferSelect;
type Parsed = Extract<ParsedTxHash, { ok: true }>;

/** Whether a reported hash may become the one this transaction is tracked by, and why not. */
type Decision = { take: true } | { take: false; reason: string };

async function parseReportedHash(ctx: AppContext, tx: TransactionRow, txHash: string): Promise<Parsed> {
  const chain = (await getCatalog(ctx)).chain(tx.srcChain);
  const parsed = parseTxHash(chain ?? { key: tx.srcChain, type: 'EVM' }, txHash);
  if (!parsed.ok) {
    throw new AppError('VALIDATION_ERROR', parsed.message, {
      problems: [{ code: 'VALIDATION_ERROR', field: 'txHash', message: parsed.message }],
    });
  }
  return parsed;
}

/**
 * A hash is taken while the transaction has none. Replacing one needs the provider's word: a verified
 * hash is never replaced, and an unverified one only by a hash the provider ties to this swap now —
 * so neither a stranger's hash nor a junk one reported first can take the swap over or lock its owner out.
 */
async function decide(
  ctx: AppContext,
  adapter: ProviderAdapter | undefined,
  tx: TransactionRow,
  hash: string,
): Promise<Decision> {
  const held = claimedHash(tx);
  if (!held || hashKey(held) === hashKey(hash)) return { take: true };
  if (tx.hashVerifiedAt) return { take: false, reason: `${held} is already verified as this swap's deposit` };
  if (!adapter) return { take: false, reason: 'the provider is not available to confirm it' };
  try {
    const check = (await askProvider(ctx, adapter, tx, hash)).hashCheck;
    if (verifies(check, hash)) return { take: true };
    if (check?.verdict === 'rejected')
      return { take: false, reason: check.reason ?? 'the provider does not tie it to this swap' };
    return { take: false, reason: `${held} is being tracked and the provider does not know ${hash} yet` };
  } catch (error) {
    ctx.log.warn({ err: error, transactionId: tx.id }, 'could not check a reported hash with the provider');
    return { take: false, reason: 'the provider could not be asked to confirm it' };
  }
}

/**
 * The decision, taken on the row as read, against the row as locked: a hash the row holds by now (a poll
 * took it from the provider meanwhile) is this report's, not a race; another one taken meanwhile is a race.
 */
export function onLockedRow(
  readHeld: string,
  lockedHeld: string,
  reported: string | undefined,
  decision: Decision | undefined,
) {
  const alreadyHeld = reported !== undefined && hashKey(lockedHeld) === hashKey(reported);
  const raced = decision?.take === true && !alreadyHeld && lockedHeld !== readHeld;
  return { raced, alreadyHeld, take: decision?.take === true && !raced && !alreadyHeld };
}

/**
 * A deposit reported for a swap that expired waiting for one, which the provider does not vouch for: the
 * hash goes on the timeline for support, and the client is told plainly. The money is with the provider.
 */
async function refuseAfterExpiry(ctx: AppContext, tx: TransactionRow, hash: string): Promise<never> {
  await ctx.db.insert(transactionEvents).values({
    transactionId: tx.id,
    type: 'track_ignored',
    message: `Client reported hash ${hash} after the swap expired waiting for its deposit; not tracked. Funds sent now are with ${providerName(tx.provider)}, whose own rules refund them`,
    data: { txHash: hash, substatus: 'EXPIRED' },
  });
  await afterTransactionChange(ctx, tx.id);
  throw new AppError(
    'SWAP_EXPIRED',
    `This swap expired before a deposit was seen, so ${hash} is not tracked. Funds sent to it are with ${providerName(tx.provider)}, whose own rules refund them; contact support with this hash and transaction id.`,
    { field: 'txHash' },
  );
}

function hashPatch(tx: TransactionRow, parsed: Parsed): Partial<typeof transactions.$inferInsert> {
  return { hash: parsed.hash, hashKey: hashKey(parsed.hash), ...tonForms(tx, parsed) };
}

/**
 * A TON external message's two hash forms, kept for the provider's status check whichever form it
 * reports; also when a poll took the same hash from the provider first, since only the BoC gives both.
 */
function tonForms(tx: TransactionRow, parsed: Parsed): Partial<typeof transactions.$inferInsert> {
  if (parsed.kind !== 'ton-boc') return {};
  const { tonMessageHash, tonNormalizedHash } = tx.trackingContext;
  if (tonMessageHash === parsed.hash && tonNormalizedHash === parsed.normalizedHash) return {};
  return {
    trackingContext: { ...tx.trackingContext, tonMessageHash: parsed.hash, tonNormalizedHash: parsed.normalizedHash },
  };
}

/**
 * Records a client-reported source hash and polls at once. Provider metadata from the client is
 * never read: tracking uses only the context stored at execute, which a client cannot forge. A hash that is not
 * taken is kept on the timeline only; the answer's `hash` says which one the swap is tracked by.
 */
export async function trackTransaction(ctx: AppContext, body: TrackBody): Promise<TrackResult> {
  let tx: TransactionRow = await findTransaction(ctx, { transactionId: body.transactionId });
  const summary = () => ({
    transaction: { id: tx.id, hash: tx.hash, inboundHash: tx.inboundHash, provider: tx.provider, status: tx.status },
    final: isFinal(tx.status),
  });
  const parsed = body.txHash === undefined ? undefined : await parseReportedHash(ctx, tx, body.txHash);
  const expired = tx.substatus === 'EXPIRED';
  const adapter = ctx.providers.get(tx.provider);
  // The wallet broadcast before the client reported it: offline, the simulated chain hears of it now, before
  // the provider is asked about it (a late hash's re-opening included).
  if (parsed && adapter && (expired || !isFinal(tx.status))) {
    await broadcastToSimulatedChain(ctx, adapter.key, tx.trackingContext, parsed.hash);
  }
  if (parsed && expired) {
    if (!(await reopenExpiredSwap(ctx, tx, parsed.hash))) await refuseAfterExpiry(ctx, tx, parsed.hash);
    tx = await findTransaction(ctx, { transactionId: tx.id });
  }
  if (isFinal(tx.status)) return { ...summary(), tracking: false };

  const decision = parsed ? await decide(ctx, adapter, tx, parsed.hash) : undefined;

  tx = await ctx.db.transaction(async (db) => {
    const [locked] = await db.select().from(transactions).where(eq(transactions.id, tx.id)).for('update');
    if (!locked) throw notFound('Transaction', 'transactionId');
    const { raced, alreadyHeld, take } = onLockedRow(claimedHash(tx), claimedHash(locked), parsed?.hash, decision);
    const patch: Partial<typeof transactions.$inferInsert> = {
      updatedAt: new Date(),
      ...(parsed && take ? hashPatch(locked, parsed) : parsed && alreadyHeld ? tonForms(locked, parsed) : {}),
    };
    // A deposit reported for a swap nothing has reported progress on yet (or whose last report was rejected): it
    // waits for its confirmations.
    if (take && (!locked.substatus || locked.substatus === 'HASH_REJECTED')) {
      patch.substatus = 'WAITING_SOURCE_CONFIRMATIONS';
    }
    const hash = claimedHash({ ...locked, ...patch } as TransactionRow);
    const trackable = !!adapter && adapter.canTrack(locked.trackingContext, hash);
    if (trackable && !isFinal(locked.status)) patch.nextPollAt = new Date();
    const [updated] = await db.update(transactions).set(patch).where(eq(transactions.id, locked.id)).returning();
    const fromBoc = parsed?.kind === 'ton-boc' ? { normalizedHash: parsed.normalizedHash, fromBoc: true } : {};
    const ignored = parsed && !alreadyHeld && (decision?.take === false || raced);
    await db.insert(transactionEvents).values(
      ignored
        ? {
            transactionId: locked.id,
            type: 'track_ignored',
            message: `Client reported hash ${parsed.hash}; not taken: ${decision?.take === false ? decision.reason : 'another hash was taken meanwhile'}`,
            data: { txHash: parsed.hash, ...fromBoc },
          }
        : {
            transactionId: locked.id,
            type: 'track',
            message: parsed ? `Client reported hash ${parsed.hash}` : 'Client asked to refresh tracking',
            data: {
              txHash: parsed?.hash ?? null,
              ...fromBoc,
              ...(patch.substatus ? { substatus: patch.substatus } : {}),
            },
          },
    );
    return updated ?? locked;
  });
  await afterTransactionChange(ctx, tx.id);

  const tracking = !!adapter && adapter.canTrack(tx.trackingContext, claimedHash(tx));
  if (tracking) {
    await ctx.tracking?.schedule(tx.id, 0).catch((error) => {
      ctx.log.warn({ err: error, transactionId: tx.id }, 'could not schedule tracking; the sweep will pick it up');
    });
  }
  return { ...summary(), tracking };
}
