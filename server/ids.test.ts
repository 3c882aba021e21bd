import { describe, expect, it } from 'vitest';
import { newLockId, newRequestId, newTransactionId, PUBLIC_ID_PATTERN } from './ids';

describe('public ids', () => {
  it('are 22 base62 characters after their prefix, distinct, and use the whole alphabet evenly enough', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => [newRequestId, newLockId, newTransactionId][i % 3]?.() ?? '');
    for (const id of ids) expect(id).toMatch(PUBLIC_ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const c of id.slice(id.indexOf('_') + 1)) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 110,000 characters over 62 symbols: about 1,774 each; a biased or truncated alphabet falls far outside.
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(n).toBeGreaterThan(1400);
  });
});
