import { describe, expect, it } from 'vitest';
import { onLockedRow } from './track';

const H = `0x${'2'.repeat(64)}`;
const OTHER = `0x${'3'.repeat(64)}`;

describe('a reported hash against the row as locked', () => {
  it('is the report’s own when a poll took the same hash from the provider meanwhile, not a race', () => {
    expect(onLockedRow('', H, H, { take: true })).toEqual({ raced: false, alreadyHeld: true, take: false });
    expect(onLockedRow('', H.toUpperCase().replace('0X', '0x'), H, { take: true })).toMatchObject({ raced: false });
  });

  it('is a race when another hash was taken meanwhile', () => {
    expect(onLockedRow('', OTHER, H, { take: true })).toEqual({ raced: true, alreadyHeld: false, take: false });
  });

  it('is taken when the row still holds what the decision read', () => {
    expect(onLockedRow('', '', H, { take: true })).toEqual({ raced: false, alreadyHeld: false, take: true });
    expect(onLockedRow(OTHER, OTHER, H, { take: false, reason: 'no' })).toMatchObject({ take: false, raced: false });
    expect(onLockedRow('', '', undefined, undefined)).toEqual({ raced: false, alreadyHeld: false, take: false });
  });
});
