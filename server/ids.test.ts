import { describe, expect, it } from 'vitest';
import { newLockId, newRequestId, newTransactionId, PUBLIC_ID_PATTERN } from './ids';

describe('public ids', () => {
  it('are 22 base62 characters after their prefix, distinct, and use the whole alphabet', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) =>
      [newRequestId, newLockId, newTransactionId][i % 3]?.(),
    ) as string[];
    for (const id of ids) expect(id).toMatch(PUBLIC_ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const c of id.slice(id.indexOf('_') + 1)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 220,000 characters: about 3,548 each when uniform (±60); mapping every byte modulo 62 would give
    // the first eight characters about 4,400.
    for (const n of counts.values()) expect(n).toBeGreaterThan(3000);
    for (const n of counts.values()) expect(n).toBeLessThan(4100);
  });
});
