import { describe, expect, it } from 'vitest';
import type { LockedQuote, Route } from '../../app/(public)/_lib/api';
import { newExecuteKey, readSavedLock, writeSavedLock } from '../../app/(public)/_swap/saved-lock';
import {
  EMPTY_FORM,
  initialSwapState,
  type Quote,
  type SavedLock,
  swapReducer,
} from '../../app/(public)/_swap/swap-state';

/** sessionStorage's three calls over a Map. */
const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
};

const quote: Quote = {
  routes: [{ provider: 'RELAY', routeId: 'r1' } as Route],
  request: { srcChain: 'ethereum', srcAddress: 'native', dstChain: 'bitcoin', dstAddress: 'native', amount: '1' },
  key: 'pair',
};
const saved: SavedLock = {
  form: { ...EMPTY_FORM, srcChain: 'ethereum', amount: '1', depositor: '0xabc' },
  quote,
  lock: { lockId: 'lk_1', provider: 'RELAY', ttlMs: 30_000 } as LockedQuote,
  deadline: 10_000,
  executeKey: 'swap-page-key',
};

describe('the swap page keeps a running lock across a reload', () => {
  it('reads back what it wrote while the lock runs, and nothing once it has run out', () => {
    const storage = memoryStorage();
    writeSavedLock(storage, saved);
    expect(readSavedLock(storage, 9_999)).toEqual(saved);
    expect(readSavedLock(storage, 10_000)).toBeNull();
  });

  it('forgets the lock when told (any stage but locked or executing)', () => {
    const storage = memoryStorage();
    writeSavedLock(storage, saved);
    writeSavedLock(storage, null);
    expect(storage.items.size).toBe(0);
    expect(readSavedLock(storage, 0)).toBeNull();
  });

  it('drops what is not a lock this page saved: bad JSON, another shape, a form field not text', () => {
    for (const stored of ['{', '[]', '"lk_1"', JSON.stringify({ ...saved, executeKey: 7 })]) {
      const storage = memoryStorage();
      storage.setItem('switchyard.locked-swap', stored);
      expect(readSavedLock(storage, 0)).toBeNull();
    }
    const storage = memoryStorage();
    storage.setItem('switchyard.locked-swap', JSON.stringify({ ...saved, form: { ...saved.form, amount: 1 } }));
    expect(readSavedLock(storage, 0)).toBeNull();
  });

  it('works on when storage refuses (private mode, full quota)', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(() => writeSavedLock(refusing, saved)).not.toThrow();
    expect(readSavedLock(refusing, 0)).toBeNull();
  });

  it('restores the lock, its form and its execute key onto a fresh page, and onto nothing else', () => {
    const restored = swapReducer(initialSwapState, { type: 'restore-lock', saved, now: 4_000 });
    expect(restored.form).toEqual(saved.form);
    expect(restored.stage).toEqual({
      step: 'locked',
      quote,
      lock: saved.lock,
      deadline: 10_000,
      executeKey: 'swap-page-key',
    });
    expect(restored.announcement).toBe('Your locked quote is back: 6 seconds left to execute');
    const quoting = swapReducer(initialSwapState, { type: 'quote' });
    expect(swapReducer(quoting, { type: 'restore-lock', saved, now: 4_000 })).toBe(quoting);
  });

  it('carries the execute key into executing, so the execute a reload interrupted can be repeated safely', () => {
    const restored = swapReducer(initialSwapState, { type: 'restore-lock', saved, now: 0 });
    const executing = swapReducer(restored, { type: 'execute' });
    expect(executing.stage).toMatchObject({ step: 'executing', executeKey: 'swap-page-key' });
  });

  it('makes a new, valid Idempotency-Key for every lock', () => {
    const keys = new Set(Array.from({ length: 50 }, newExecuteKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^swap-page-[0-9a-f]{32}$/);
  });
});
