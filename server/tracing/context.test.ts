import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
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

  it('lets the storage go once no request holds it: work left behind reads no context (the old storage is gone)', async () => {
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
    const again = manager.hold();
    const seen = await manager.with(kept('b'), async () => {
      await nextTurn();
      return nameIn(manager);
    });
    expect(seen).toBe('b');
    again();
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
});
