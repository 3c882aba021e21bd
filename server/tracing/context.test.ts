import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Context, createContextKey, ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ReleasingContextManager } from './context';

const KEY = createContextKey('test');
const kept = (name: string): Context => ROOT_CONTEXT.setValue(KEY, name);
const nameIn = (manager: ReleasingContextManager) => manager.active().getValue(KEY);

/**
 * Work a kept request leaves behind: a continuation made inside `context` that runs only once `later` is
 * called (an event, not a clock), and resolves with the context it then reads.
 */
function leftBehindIn(manager: ReleasingContextManager, context: Context) {
  let later: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    later = resolve;
  });
  const seen = manager.with(context, () => gate.then(() => nameIn(manager)));
  return { seen, later };
}

/** What a request kept now reads of its own context after a turn of the event loop. */
async function keptRequestReads(manager: ReleasingContextManager, name: string) {
  const release = manager.hold();
  const seen = await manager.with(kept(name), async () => {
    await nextTurn();
    return nameIn(manager);
  });
  release();
  return seen;
}

/** Two turns of the event loop: the release runs on the first after the last hold ends. */
async function afterRelease() {
  await nextTurn();
  await nextTurn();
}

describe('ReleasingContextManager (#45 item 4: tracing you can leave on)', () => {
  it('carries a kept request context through its async work while it is held', async () => {
    const manager = new ReleasingContextManager();
    const release = manager.hold();
    const seen = await manager.with(kept('a'), async () => {
      await nextTurn();
      await Promise.resolve();
      return nameIn(manager);
    });
    expect(seen).toBe('a');
    release();
  });

  it('lets the storage go once no request holds it: work left behind reads no context (what it entered is stale)', async () => {
    const manager = new ReleasingContextManager();
    const release = manager.hold();
    const late = leftBehindIn(manager, kept('a'));
    release();
    await afterRelease();
    late.later();
    // Without the release it still reads 'a': the storage, and its hook on every promise, stayed on.
    expect(await late.seen).toBeUndefined();
    expect(nameIn(manager)).toBeUndefined();
    // A request kept afterwards is carried again.
    expect(await keptRequestReads(manager, 'b')).toBe('b');
  });

  it('turns the storage off at each release and uses the same one again: a promise made after it carries none of its marks, and each kept request marks with one key', async () => {
    const manager = new ReleasingContextManager();
    const marks = () => Object.getOwnPropertySymbols(Promise.resolve());
    const others = new Set(marks());
    const ownMarksWhileKept = async () => {
      const release = manager.hold();
      const own = await manager.with(kept('a'), async () => marks().filter((mark) => !others.has(mark)));
      release();
      await afterRelease();
      return own;
    };
    const first = await ownMarksWhileKept();
    expect(first).toHaveLength(1);
    // Off: Node runs no hook of ours on a promise made now.
    expect(marks().filter((mark) => first.includes(mark))).toEqual([]);
    // One storage throughout: a fresh one at each release gave every long-lived resource (a keep-alive
    // connection's) a key more per release, and the objects made in each window a shape of their own.
    expect(await ownMarksWhileKept()).toEqual(first);
    expect(await ownMarksWhileKept()).toEqual(first);
  });

  it('keeps the storage while another kept request is still in flight, and counts a release once', async () => {
    const manager = new ReleasingContextManager();
    const first = manager.hold();
    const second = manager.hold();
    const secondsWork = leftBehindIn(manager, kept('second'));
    first();
    first();
    await afterRelease();
    secondsWork.later();
    expect(await secondsWork.seen).toBe('second');
    second();
  });

  it('in a server, lets go a context with no recording span entered while no request holds it (a late bound listener, the exporter)', async () => {
    const manager = new ReleasingContextManager({ releaseUnheld: true });
    const unheld = leftBehindIn(manager, kept('export'));
    await afterRelease();
    unheld.later();
    // Without the release the storage stays on, and its hook taxes every promise, until a kept request ends.
    expect(await unheld.seen).toBeUndefined();
    expect(await keptRequestReads(manager, 'next')).toBe('next');
  });

  it('in a server, keeps a context whose span is being recorded though no request holds it (work of its own)', async () => {
    const manager = new ReleasingContextManager({ releaseUnheld: true });
    const recording = { isRecording: () => true } as unknown as Span;
    const work = leftBehindIn(manager, trace.setSpan(kept('background'), recording));
    await afterRelease();
    work.later();
    expect(await work.seen).toBe('background');
  });

  it('in a worker, keeps a context entered with no request to hold it: a job carries its trace to its end', async () => {
    const manager = new ReleasingContextManager();
    const job = leftBehindIn(manager, kept('job'));
    await afterRelease();
    job.later();
    expect(await job.seen).toBe('job');
  });
});
