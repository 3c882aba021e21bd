import { expect, it } from 'vitest';
import { startTestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';
import { prefixKeys } from './support/redis-prefixes';

it("a test app deletes its Redis prefix's keys, its own and BullMQ's, when it stops", async () => {
  const t = await startTestApp({ RATE_LIMIT_CATALOG: '1' });
  const prefix = t.app.config.redisPrefix;
  try {
    await executeSwap(t, ETH_TO_BTC, 'RELAY');
    await t.fetch('/api/v1/swap/chains');
    expect((await t.fetch('/api/v1/swap/chains')).status).toBe(429);
    const keys = await prefixKeys(prefix);
    expect(keys.some((k) => k.startsWith(`${prefix}:`))).toBe(true);
    expect(keys.some((k) => k.startsWith(`{${prefix}}:`))).toBe(true);
  } finally {
    await t.stop();
  }
  expect(await prefixKeys(prefix)).toEqual([]);
});
