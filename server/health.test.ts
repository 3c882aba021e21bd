import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from './context';
import { checkReadiness } from './health';

describe('readiness while Redis does not answer', () => {
  // Accepts connections and never answers: the client stays connecting, with no 'ready' and no 'error'.
  const silent = createServer(() => {});
  const listening = new Promise<number>((resolve) =>
    silent.listen(0, '127.0.0.1', () => resolve((silent.address() as { port: number }).port)),
  );
  let redis: Redis | undefined;
  afterAll(() => {
    redis?.disconnect();
    silent.close();
  });

  it('says so, and many probes while it connects leave no listeners behind', async () => {
    redis = new Redis({ host: '127.0.0.1', port: await listening, connectTimeout: 60_000, maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    const ctx = {
      config: { dependencyTimeoutMs: 20 },
      sql: () => Promise.resolve([]),
      redis,
      reads: { replicaState: () => undefined },
    } as unknown as AppContext;
    const listeners = () => redis?.listenerCount('ready') ?? 0;
    for (let probe = 0; probe < 40; probe++) {
      const readiness = await checkReadiness(ctx);
      expect(readiness.ok).toBe(false);
      expect(readiness.checks.redis).toMatchObject({ ok: false, error: 'timeout' });
    }
    // ioredis' own and one shared wait, not a listener per probe (41 before the fix).
    expect(listeners()).toBeLessThanOrEqual(2);
  });
});
