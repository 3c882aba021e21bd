import { describe, expect, it } from 'vitest';
import { unreadableAnswer } from '../../app/(public)/_lib/api';

describe('an answer the swap page cannot read (a proxy page, an HTML 503)', () => {
  it('says what to do in words, never a bare status code', () => {
    for (const status of [0, 200, 400, 429, 500, 502, 503, 504]) {
      const text = unreadableAnswer(status);
      expect(text).not.toMatch(/HTTP|\d{3}/);
      expect(text).toMatch(/try again|Wait/);
    }
  });

  it('tells a service restarting apart from a limit and from anything else', () => {
    expect(unreadableAnswer(503)).toContain('unavailable for a moment');
    expect(unreadableAnswer(502)).toBe(unreadableAnswer(503));
    expect(unreadableAnswer(429)).toContain('Too many requests');
    expect(unreadableAnswer(500)).toContain('could not read');
  });
});
