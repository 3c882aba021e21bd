import { describe, expect, it } from 'vitest';
import { raceDeadline, withDeadline } from './deadline';

describe('withDeadline', () => {
  it('answers the caller first, then aborts the abandoned work with the same error', async () => {
    const seen: string[] = [];
    let signal: AbortSignal | undefined;
    const timeout = new Error('no answer in time');
    const outcome = withDeadline(
      5,
      (s) => {
        signal = s;
        s.addEventListener('abort', () => seen.push('work aborted'));
        return new Promise<never>(() => {});
      },
      () => timeout,
    ).catch((error: unknown) => {
      seen.push('caller answered');
      return error;
    });
    expect(await outcome).toBe(timeout);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['caller answered', 'work aborted']);
    expect(signal?.reason).toBe(timeout);
  });

  it('returns the work’s answer and never aborts it when it beats the deadline', async () => {
    let signal: AbortSignal | undefined;
    const answer = await withDeadline(
      60_000,
      async (s) => {
        signal = s;
        return 42;
      },
      () => new Error('late'),
    );
    expect(answer).toBe(42);
    expect(signal?.aborted).toBe(false);
  });
});

describe('raceDeadline', () => {
  it('gives up on work that takes too long with the timeout’s error', async () => {
    const timeout = new Error('too long');
    await expect(
      raceDeadline(
        5,
        () => new Promise<never>(() => {}),
        () => timeout,
      ),
    ).rejects.toBe(timeout);
  });

  it('passes the work’s answer or its error through when it beats the deadline', async () => {
    await expect(
      raceDeadline(
        60_000,
        async () => 'answer',
        () => new Error('late'),
      ),
    ).resolves.toBe('answer');
    const failure = new Error('own failure');
    await expect(
      raceDeadline(
        60_000,
        () => Promise.reject(failure),
        () => new Error('late'),
      ),
    ).rejects.toBe(failure);
    await expect(
      raceDeadline(
        60_000,
        () => {
          throw failure;
        },
        () => new Error('late'),
      ),
    ).rejects.toBe(failure);
  });
});
