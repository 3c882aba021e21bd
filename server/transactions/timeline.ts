import { asc, eq } from 'drizzle-orm';
import { transactionEvents } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { SUBSTATUSES, type Substatus, type TxStatus } from '../providers/types';
import type { StatusQuery } from '../schemas/transactions';
import { findTransaction } from './lookup';
import { recordedTogether } from './recorded-together';
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

type TimelineState = Omit<TimelineEvent, 'id' | 'at' | 'source' | 'type'>;

/** Which of the events one write recorded together names the change: the most telling one. */
const TELLING = ['status_changed', 'partial_fill', 'hash_rejected', 'hash_verified', 'hash_updated', 'progress'];
const telling = (type: string) => {
  const rank = TELLING.indexOf(type);
  return rank === -1 ? TELLING.length : rank;
};

/** Steps that are news in themselves, even when the swap's visible state stays the same. */
const ALWAYS_SHOWN = new Set(['created', 'track', 'hash_rejected', 'partial_fill', 'stale', 'manual_poll']);

const sameState = (a: TimelineState, b: TimelineState) =>
  a.status === b.status &&
  a.substatus === b.substatus &&
  a.hash === b.hash &&
  a.inboundHash === b.inboundHash &&
  a.outboundHash === b.outboundHash;

/** One recorded event applied to the replayed state. */
function replay(state: TimelineState, row: EventRow) {
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
}

/**
 * The public timeline from the recorded events, oldest first: one step per change. The events one
 * write recorded together (a provider answer's progress, hashes and status) are one step, named by
 * the most telling of them and carrying the state after all of them; a step that changes nothing a
 * person can see (a provider state with the same meaning as the last) is left out.
 */
export function buildTimeline(rows: readonly EventRow[], initial: TimelineState): TimelineEvent[] {
  const state = { ...initial };
  const steps: TimelineEvent[] = [];
  let shown: TimelineState = { ...initial };
  const visible = rows.filter((row) => PUBLIC_EVENTS[row.type]);
  const news = (row: EventRow) => ALWAYS_SHOWN.has(row.type);
  const runs = recordedTogether(
    visible,
    (row) => row.createdAt.getTime(),
    (run, row) => PUBLIC_EVENTS[run[0]?.type ?? ''] === PUBLIC_EVENTS[row.type] && !news(row) && !run.some(news),
  );
  for (const run of runs) {
    for (const row of run) replay(state, row);
    const named = run.reduce((best, row) => (telling(row.type) < telling(best.type) ? row : best));
    const last = run.at(-1) as EventRow;
    if (run.some(news) || steps.length === 0 || !sameState(state, shown)) {
      const source = PUBLIC_EVENTS[named.type] as TimelineSource;
      steps.push({ id: last.id, at: named.createdAt.toISOString(), source, type: named.type, ...state });
      shown = { ...state };
    }
  }
  return steps;
}

/** The swap's public timeline (see `buildTimeline`); messages and provider payloads stay internal. */
export async function getTransactionTimeline(ctx: AppContext, query: StatusQuery): Promise<TimelineEvent[]> {
  const tx = await findTransaction(ctx, query);
  const rows = await ctx.db
    .select()
    .from(transactionEvents)
    .where(eq(transactionEvents.transactionId, tx.id))
    .orderBy(asc(transactionEvents.id));
  return buildTimeline(rows, {
    status: 'PENDING',
    substatus: null,
    hash: text(tx.providerResult.txHash) ?? '',
    inboundHash: text(tx.providerResult.txHash) ?? '',
    outboundHash: '',
  });
}
