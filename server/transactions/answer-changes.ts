import { randomUUID } from 'node:crypto';
import { keep } from '../bounded-map';
import type { AppContext } from '../context';
import { perKey } from '../per-key';

/** The channel the database announces changes of status answers on (a trigger, migration 0012). */
export const ANSWER_CHANGES_CHANNEL = 'transaction_answers';

/** How a status answer was looked up: what a kept answer is found by, and what a change drops. */
export const lookupById = (transactionId: string) => `id:${transactionId}`;
export const lookupByHashKey = (key: string | null) => `hash:${key}`;

/** One read of the database for a lookup; a change heard while it ran makes its answer unfit to keep. */
export interface AnswerRead {
  stale: boolean;
}

/**
 * Answers kept by lookup, each until its own deadline or until a change of a transaction it names is
 * heard, oldest dropped first past the bound. A read that a change overtook (it may have read the row
 * before the change committed) keeps nothing, so a dropped answer never comes back older.
 */
export class KeptAnswers<V> {
  private readonly kept = new Map<string, { value: V; keptUntil: number }>();
  private readonly reads = new Map<string, Set<AnswerRead>>();

  constructor(private readonly bound: number) {}

  get(lookup: string): V | undefined {
    const kept = this.kept.get(lookup);
    return kept && Date.now() < kept.keptUntil ? kept.value : undefined;
  }

  beginRead(lookup: string): AnswerRead {
    const read = { stale: false };
    const reads = this.reads.get(lookup);
    if (reads) reads.add(read);
    else this.reads.set(lookup, new Set([read]));
    return read;
  }

  /** Ends a read; keeps its answer until `keptUntil` unless a change overtook it (nothing kept without one). */
  finishRead(lookup: string, read: AnswerRead, kept?: { value: V; keptUntil: number }): void {
    const reads = this.reads.get(lookup);
    reads?.delete(read);
    if (reads?.size === 0) this.reads.delete(lookup);
    if (kept && !read.stale) keep(this.kept, lookup, kept, this.bound);
  }

  forget(lookups: Iterable<string>): void {
    for (const lookup of lookups) {
      this.kept.delete(lookup);
      for (const read of this.reads.get(lookup) ?? []) read.stale = true;
    }
  }

  forgetAll(): void {
    this.kept.clear();
    for (const reads of this.reads.values()) for (const read of reads) read.stale = true;
  }
}

/** What a status answer kept in memory holds: the answer, and the explorer links it was made with. */
export interface KeptStatus<S> {
  status: S;
  explorerKey: string;
}

export interface AnswerChanges<S> {
  kept: KeptAnswers<KeptStatus<S>>;
  /**
   * How many times the `LISTEN` has been put in place and proven by a marker that came back through
   * it: 0 until then (behind a transaction-pooling proxy, never), and changes are heard only from
   * then on. A reconnect of the listening connection forgets every answer first, since changes made
   * while it was down were never heard; an answer that can still change is kept only when this did
   * not move while it was read.
   */
  listens: number;
  /** Settles once the first `LISTEN` is proven, has failed, or its marker did not come back in time. */
  ready: Promise<void>;
  /** Markers announced by this process and waited for, by id. */
  markers: Map<string, () => void>;
}

const ANSWERS_KEPT = 8192;
const MARKER_TIMEOUT_MS = 5000;

interface Announcement {
  id?: string;
  hashKeys?: string[];
  marker?: string;
}

/**
 * Announces a marker on the channel and resolves true once it comes back through this app's `LISTEN`,
 * false if it does not in time: announcements arrive in commit order, so everything committed before
 * has been heard by then.
 */
function markerHeard(ctx: AppContext, changes: AnswerChanges<unknown>, timeoutMs: number): Promise<boolean> {
  const marker = randomUUID();
  return new Promise<boolean>((resolve) => {
    const settle = (heard: boolean) => {
      clearTimeout(timer);
      changes.markers.delete(marker);
      resolve(heard);
    };
    // Never what keeps a stopping process alive.
    const timer = setTimeout(() => settle(false), timeoutMs).unref();
    changes.markers.set(marker, () => settle(true));
    ctx.sql`select pg_notify(${ANSWER_CHANGES_CHANNEL}, ${JSON.stringify({ marker })})`.catch(() => settle(false));
  });
}

/**
 * The kept status answers of one app, and the one `LISTEN` that keeps them current: postgres.js holds
 * it on a connection of its own (DATABASE_LISTEN_URL's, when set) and listens again after a reconnect. Started by the first status read,
 * so processes that never answer one (the worker) never listen.
 */
export const answerChanges = perKey((ctx: AppContext): AnswerChanges<unknown> => {
  let firstListen: () => void = () => {};
  const changes: AnswerChanges<unknown> = {
    kept: new KeptAnswers(ANSWERS_KEPT),
    listens: 0,
    ready: new Promise<void>((resolve) => {
      firstListen = resolve;
    }),
    markers: new Map(),
  };
  const heard = (payload: string) => {
    let announced: Announcement;
    try {
      announced = JSON.parse(payload) as Announcement;
    } catch {
      changes.kept.forgetAll();
      return;
    }
    if (announced.marker) changes.markers.get(announced.marker)?.();
    const lookups = (announced.hashKeys ?? []).map(lookupByHashKey);
    if (announced.id) lookups.push(lookupById(announced.id));
    changes.kept.forget(lookups);
  };
  let listenedBefore = false;
  const listened = async () => {
    if (listenedBefore) changes.kept.forgetAll();
    listenedBefore = true;
    if (await markerHeard(ctx, changes, MARKER_TIMEOUT_MS)) changes.listens++;
    else ctx.log.warn(NOT_HEARD);
    firstListen();
  };
  if (!ctx.listenSql) {
    ctx.log.warn(`${NOT_HEARD} (DATABASE_POOLER=transaction and no DATABASE_LISTEN_URL)`);
    firstListen();
    return changes;
  }
  ctx.listenSql.listen(ANSWER_CHANGES_CHANNEL, heard, listened).catch((error: unknown) => {
    ctx.log.warn({ err: error }, NOT_HEARD);
    firstListen();
  });
  return changes;
});

const NOT_HEARD = 'status answer changes not heard: answers that can still change are read every time';

/**
 * Resolves once this app has heard every change committed before the call. For tests and tools that
 * write rows directly and then read a status answer; the API needs no such wait.
 */
export async function changesHeard(ctx: AppContext, timeoutMs = MARKER_TIMEOUT_MS): Promise<void> {
  const changes = answerChanges(ctx);
  await changes.ready;
  if (!(await markerHeard(ctx, changes, timeoutMs))) throw new Error('status answer changes not heard in time');
}
