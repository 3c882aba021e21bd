import { asc, eq } from 'drizzle-orm';
import { transactionEvents } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { SUBSTATUSES, type Substatus, type TxStatus } from '../providers/types';
import type { StatusQuery } from '../schemas/transactions';
import { findTransaction } from './lookup';
import { substatusFor } from './transitions';

type EventRow = typeof transactionEvents.$inferSelect;

export const TIMELINE_SOURCES = ['execute', 'poll', 'track', 'sweep', 'support'] as const;
export type TimelineSource = (typeof TIMELINE_SOURCES)[number];

/** The recorded events the public sees, by who wrote them; the rest (errors, ignored reports) stay internal. */
const PUBLIC_EVENTS: Record<string, TimelineSource> = {
  created: 'execute',
  track: 'track',
  progress: 'poll',
  hash_updated: 'poll',
  hash_verified: 'poll',
  hash_rejected: 'poll',
  status_changed: 'poll',
  partial_fill: 'poll',
  stale: 'sweep',
  manual_poll: 'support',
};
export const TIMELINE_TYPES = Object.keys(PUBLIC_EVENTS) as [string, ...string[]];

export interface TimelineEvent {
  id: number;
  at: string;
  source: TimelineSource;
  type: string;
  status: TxStatus;
  substatus: Substatus | null;
  hash: string;
  inboundHash: string;
  outboundHash: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const substatusIn = (data: EventRow['data']) => {
  const value = data?.substatus;
  return SUBSTATUSES.includes(value as Substatus) ? (value as Substatus) : undefined;
};

/**
 * The swap's public timeline, oldest first: each recorded step with the state it left behind (status,
 * substatus, hashes), replayed from the events alone. Messages and provider payloads stay internal.
 */
export async function getTransactionTimeline(ctx: AppContext, query: StatusQuery): Promise<TimelineEvent[]> {
  const tx = await findTransaction(ctx, query);
  const rows = await ctx.db
    .select()
    .from(transactionEvents)
    .where(eq(transactionEvents.transactionId, tx.id))
    .orderBy(asc(transactionEvents.id));
  const state: Omit<TimelineEvent, 'id' | 'at' | 'source' | 'type'> = {
    status: 'PENDING',
    substatus: null,
    hash: text(tx.providerResult.txHash) ?? '',
    inboundHash: text(tx.providerResult.txHash) ?? '',
    outboundHash: '',
  };
  const timeline: TimelineEvent[] = [];
  for (const row of rows) {
    const source = PUBLIC_EVENTS[row.type];
    if (!source) continue;
    const data = row.data ?? {};
    if (row.toStatus) state.status = row.toStatus;
    const substatus = row.type === 'status_changed' ? substatusFor(state.status, substatusIn(data)) : substatusIn(data);
    if (substatus) state.substatus = substatus;
    if (row.type === 'track' && text(data.txHash)) state.hash = text(data.txHash) as string;
    if (row.type === 'hash_rejected') {
      if (state.hash === data.hash) state.hash = '';
      if (state.inboundHash === data.hash) state.inboundHash = '';
    }
    if (text(data.inboundHash)) {
      state.inboundHash = text(data.inboundHash) as string;
      state.hash ||= state.inboundHash;
    }
    if (text(data.outboundHash)) state.outboundHash = text(data.outboundHash) as string;
    timeline.push({ id: row.id, at: row.createdAt.toISOString(), source, type: row.type, ...state });
  }
  return timeline;
}
