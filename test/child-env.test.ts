import { afterEach, describe, expect, it } from 'vitest';
import { childEnv } from './support/processes';

describe('spawned test processes', () => {
  const saved = process.env.AUTH_SECRET;
  afterEach(() => {
    if (saved === undefined) delete process.env.AUTH_SECRET;
    else process.env.AUTH_SECRET = saved;
  });

  it("run on the test's configuration, not on app settings this process happens to carry", () => {
    process.env.AUTH_SECRET = 'exported-by-npm-test-0123456789abcdef';
    const env = childEnv({ REDIS_PREFIX: 'tchildenv' });
    expect(env.AUTH_SECRET).toBeUndefined();
    expect(env.REDIS_PREFIX).toBe('tchildenv');
    expect(env.PATH).toBe(process.env.PATH);
  });
});
