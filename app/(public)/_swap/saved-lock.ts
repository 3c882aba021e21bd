import type { SavedLock } from './swap-state';

const STORAGE_KEY = 'switchyard.locked-swap';

/** A new Idempotency-Key: 128 random bits in hex (crypto.randomUUID needs a secure context; this does not). */
export function newExecuteKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `swap-page-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Whether what storage held still has the shape this page saved (an older page's, or edited by hand, is dropped). */
function isSavedLock(value: unknown): value is SavedLock {
  if (!isRecord(value) || !isRecord(value.form) || !isRecord(value.quote) || !isRecord(value.lock)) return false;
  return (
    typeof value.lock.lockId === 'string' &&
    typeof value.deadline === 'number' &&
    typeof value.executeKey === 'string' &&
    Array.isArray(value.quote.routes) &&
    isRecord(value.quote.request) &&
    Object.values(value.form).every((field) => typeof field === 'string')
  );
}

/** The lock saved in this tab, if it is still running at `now`. */
export function readSavedLock(storage: Pick<Storage, 'getItem'>, now: number): SavedLock | null {
  try {
    const saved: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null');
    return isSavedLock(saved) && saved.deadline > now ? saved : null;
  } catch {
    return null;
  }
}

/** Keeps `saved` for a reload, or forgets the tab's lock (null). Storage full or refused: the page works without. */
export function writeSavedLock(storage: Pick<Storage, 'setItem' | 'removeItem'>, saved: SavedLock | null) {
  try {
    if (saved) storage.setItem(STORAGE_KEY, JSON.stringify(saved));
    else storage.removeItem(STORAGE_KEY);
  } catch {
    // Private modes and full quotas refuse storage; the lock then lasts as long as the page, as before.
  }
}
