import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ReleasingContextManager } from './context';

const KEY = createContextKey('test');
const kept = (name: string): Context => ROOT_CONTEXT.setValue(KEY, name);
const nameIn = (manager: ReleasingContextManager) => manager.active().getValue(KEY);

/** Runs `work` as a kept request would: held, inside its context; resolves with what a timer set in it later sees. */
function timerSetIn(manager: ReleasingContextManager, context: Context, delayMs: number) {
  return manager.with(
    context,
    () => new Promise((resolve) => setTimeout(() => resolve(nameIn(manager)), delayMs)),
  ) as Promise<unknown>;
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
    const late = timerSetIn(manager, kept('a'), 30);
    release();
    await nextTurn();
    await nextTurn();
    // Without the release the timer still reads 'a': the storage, and its hook on every promise, stayed on.
    expect(await late).toBeUndefined();
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
    const secondsTimer = timerSetIn(manager, kept('second'), 30);
    first();
    first();
    await nextTurn();
    await nextTurn();
    expect(await secondsTimer).toBe('second');
    second();
  });
});
