import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../server/config';
import { createAppContext } from '../server/context';
import { recordRateLimitHit } from '../server/ratelimit/hit-counter';
import { rollupRateLimitHits } from '../server/ratelimit/hits';
import { redisReady, startTestApp, type TestApp } from './support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());
beforeEach(async () => {
  await t.app.sql`delete from rate_limit_hits`;
});

const hit = (client: string, at = Date.now()) =>
  recordRateLimitHit(t.app.redis, t.app.config.redisPrefix, 'quote', client, at);

async function storedHits(): Promise<number> {
  const [row] = await t.app.sql<{ hits: number }[]>`select coalesce(sum(hits), 0)::int as hits from rate_limit_hits`;
  return row?.hits ?? 0;
}

describe('rate-limit hit rollup', () => {
  it('rolls up the current minute too, from its index rather than KEYS or SCAN', async () => {
    await hit('client-a');
    await hit('client-a');
    await hit('client-b', Date.now() - 60_000);
    const monitor = await t.app.redis.monitor();
    const commands: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((a) => a.includes(t.app.config.redisPrefix))) commands.push(String(args[0]).toLowerCase());
    });
    try {
      expect(await rollupRateLimitHits(t.app)).toBe(2);
    } finally {
      monitor.disconnect();
    }
    expect(await storedHits()).toBe(3);
    expect(commands).toContain('smembers');
    expect(commands).not.toContain('keys');
    expect(commands).not.toContain('scan');
    expect(await rollupRateLimitHits(t.app)).toBe(0);
    expect(await storedHits()).toBe(3);
  });

  it('neither loses nor double-counts hits that land while rollups run in two processes', async () => {
    const sibling = createAppContext(parseConfig(t.env));
    await redisReady(sibling);
    let writing = true;
    const writer = (async () => {
      for (let round = 0; round < 40; round++) {
        await Promise.all(Array.from({ length: 10 }, (_, i) => hit(`client-${i % 3}`, Date.now() - (i % 2) * 60_000)));
      }
      writing = false;
    })();
    const roller = async (ctx: typeof t.app) => {
      for (let runs = 0; writing && runs < 2000; runs++) await rollupRateLimitHits(ctx);
    };
    try {
      await Promise.all([writer, roller(t.app), roller(sibling)]);
      await rollupRateLimitHits(t.app);
      await rollupRateLimitHits(t.app);
    } finally {
      await sibling.close();
    }
    expect(await storedHits()).toBe(400);
  });

  it('writes a `:rolling` hash left by a rollup that died before Postgres took it, exactly once', async () => {
    for (let i = 0; i < 5; i++) await hit('client-a');
    const noDatabase = createAppContext(
      parseConfig({
        ...t.env,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        DATABASE_CONNECT_TIMEOUT_MS: '300',
      }),
    );
    await redisReady(noDatabase);
    try {
      await expect(rollupRateLimitHits(noDatabase)).rejects.toThrow();
    } finally {
      await noDatabase.close();
    }
    expect(await storedHits()).toBe(0);
    await hit('client-a');

    await rollupRateLimitHits(t.app);
    await rollupRateLimitHits(t.app);
    expect(await storedHits()).toBe(6);
    expect(await rollupRateLimitHits(t.app)).toBe(0);
    expect(await storedHits()).toBe(6);
  });
});
