import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { type PollRow, REMEMBERED_PAST_DUE_MS, rememberedRowCount, rememberRow, takeRememberedRow } from './poll-row';

const rowOf = (id: string) => ({ id, rowVersion: '1' }) as PollRow;

describe("a worker's remembered rows", () => {
  it("serve the job's next run on this worker, once", () => {
    const ctx = {} as AppContext;
    const now = Date.parse('2026-11-27T10:00:00Z');
    rememberRow(ctx, rowOf('a'), { attempt: 1 }, new Date(now + 5_000), now);
    expect(takeRememberedRow(ctx, 'a', { attempt: 2 })).toEqual(rowOf('a'));
    expect(takeRememberedRow(ctx, 'a', { attempt: 2 })).toBeUndefined();
  });

  it('are dropped once their next run is long past due: it went to another worker, which wrote the row since', () => {
    const ctx = {} as AppContext;
    const now = Date.parse('2026-11-27T10:00:00Z');
    for (let i = 0; i < 100; i++) rememberRow(ctx, rowOf(`gone-${i}`), { attempt: 1 }, new Date(now + 5_000), now);
    rememberRow(ctx, rowOf('slow'), { attempt: 1 }, new Date(now + 10 * 60_000), now);
    expect(rememberedRowCount(ctx)).toBe(101);

    const later = now + 5_000 + REMEMBERED_PAST_DUE_MS + 1;
    rememberRow(ctx, rowOf('fresh'), { attempt: 1 }, new Date(later + 5_000), later);
    expect(rememberedRowCount(ctx)).toBe(2);
    expect(takeRememberedRow(ctx, 'gone-0', { attempt: 2 })).toBeUndefined();
    // A row whose next run is not due yet stays, however long ago it was remembered.
    expect(takeRememberedRow(ctx, 'slow', { attempt: 2 })).toEqual(rowOf('slow'));
    expect(takeRememberedRow(ctx, 'fresh', { attempt: 2 })).toEqual(rowOf('fresh'));
  });
});
