import { describe, expect, it } from 'vitest';
import { keysetPages } from '../../app/(dashboard)/_components/keyset-pages';

describe('keyset pages (the audit log and the referral codes)', () => {
  it('steps older through next cursors and back newer to the first page, which has no cursor', () => {
    const first = keysetPages.first;
    expect(keysetPages.cursor(first)).toBeUndefined();
    const second = keysetPages.older(first, 'c1');
    const third = keysetPages.older(second, 'c2');
    expect(keysetPages.cursor(third)).toBe('c2');
    expect(keysetPages.cursor(keysetPages.newer(third))).toBe('c1');
    expect(keysetPages.newer(keysetPages.newer(third))).toEqual([]);
    expect(keysetPages.newer(first)).toEqual([]);
    expect(first).toEqual([]);
  });
});
