import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase, migrateDatabase } from '../drizzle/migrate';
import { seedCatalog } from '../drizzle/seed/seed';
import { createDb } from '../server/db';
import { startSibling, startTestApp, type TestApp } from './support/app';
import { callerFor, signedInUser } from './support/dashboard';
import { BTC_TO_ETH, WALLETS } from './support/fixtures';
import { executeSwap, randomHex } from './support/flows';
import { type PrivateServers, privateServers } from './support/private-servers';
import { freePortRange, waitUntil } from './support/processes';
import { type PrivateReplica, privateReplica } from './support/scaled-servers';

/**
 * DATABASE_READ_URL against a real streaming replica: a private primary and a replica made from it
 * with pg_basebackup, whose replay the test pauses to hold it behind (WAL still arrives; nothing of it
 * becomes visible). A simulated lag (a second database whose rows lag) would not show what matters
 * here: that the replica's replay position is read and compared to the fence, as in production.
 */
let root: string;
let primary: PrivateServers;
let replica: PrivateReplica;
let t: TestApp;

const status = async (id: string) => (await t.json(`/api/v1/transaction/status?transactionId=${id}`)).body.data;

const readiness = async (base: string) => {
  const res = await fetch(`${base}/api/health/ready`);
  return { status: res.status, body: (await res.json()) as any };
};

/** Writes to the primary behind the product's back: no change is announced, so no fence is raised. */
const quietlySetHash = (id: string, hash: string) => t.app.sql`update transactions set hash = ${hash} where id = ${id}`;

beforeAll(async () => {
  root = mkdtempSync(`${tmpdir()}/sy-replica-`);
  const ports = await freePortRange(3);
  primary = privateServers({ root, pgPort: ports, redisPort: ports + 2 });
  primary.initPostgres();
  primary.startPostgres();
  const url = primary.postgresUrl('switchyard');
  await ensureDatabase(url);
  await migrateDatabase(url);
  const seed = createDb({ url, poolMax: 1, connectTimeoutMs: 5000 });
  await seedCatalog(seed.db);
  await seed.close();
  replica = privateReplica({ root, primaryPort: ports, port: ports + 1 });
  replica.create();
  replica.start();
  t = await startTestApp({
    DATABASE_URL: url,
    DATABASE_READ_URL: replica.url('switchyard'),
    DATABASE_READ_MAX_LAG_MS: '60000',
  });
}, 90_000);

afterAll(async () => {
  await t?.stop();
  replica?.stop('immediate');
  primary?.stopPostgres('immediate');
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Replay resumed until the replica shows everything, then held again. */
async function catchUpThenHold() {
  replica.resumeReplay();
  expect(await waitUntil(() => replica.caughtUp(), { timeoutMs: 20_000 })).toBe(true);
  replica.pauseReplay();
}

describe('a read replica (DATABASE_READ_URL) with read-your-writes', () => {
  it('serves reads of what it has replayed: a change made behind the product stays unseen while replay is held', async () => {
    const { transaction } = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    await catchUpThenHold();
    const quiet = `0x${randomHex()}`;
    await quietlySetHash(transaction.id, quiet);
    expect((await status(transaction.id)).transaction.hash).toBe('');
    replica.resumeReplay();
    expect(await waitUntil(() => replica.caughtUp(), { timeoutMs: 20_000 })).toBe(true);
    expect((await status(transaction.id)).transaction.hash).toBe(quiet);
  });

  it('answers a status read right after execute: the replica misses the new row, the primary has it', async () => {
    replica.pauseReplay();
    try {
      const { transaction } = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
      const read = await status(transaction.id);
      expect(read.transaction.id).toBe(transaction.id);
      expect(read.transaction.status).toBe('PENDING');
    } finally {
      replica.resumeReplay();
    }
  });

  it('answers a status read right after track with the reported hash, though the replica has the row from before', async () => {
    const { transaction } = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    await catchUpThenHold();
    try {
      const hash = randomHex();
      const tracked = await t.post('/api/v1/transaction/track', { transactionId: transaction.id, txHash: hash });
      expect(tracked.status).toBe(200);
      expect((await status(transaction.id)).transaction.hash).toBe(hash);
      const byHash = await t.json(`/api/v1/transaction/status?hash=${hash}`);
      expect(byHash.status).toBe(200);
      expect(byHash.body.data.transaction.id).toBe(transaction.id);
    } finally {
      replica.resumeReplay();
    }
  });

  it('reports the lag; past DATABASE_READ_MAX_LAG_MS the primary serves every read and readiness stays 200', async () => {
    const { transaction } = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    await catchUpThenHold();
    const strict = await startSibling(t, { DATABASE_READ_MAX_LAG_MS: '300' });
    try {
      await quietlySetHash(transaction.id, `0x${randomHex()}`);
      expect(
        await waitUntil(async () => (await readiness(strict.baseUrl)).body.checks.replica?.error === 'lagging', {
          timeoutMs: 10_000,
        }),
      ).toBe(true);
      const ready = await readiness(strict.baseUrl);
      expect(ready.status).toBe(200);
      expect(ready.body.checks.replica.lagSeconds).toBeGreaterThan(0.3);
      const [row] = await t.app.sql<{ hash: string }[]>`select hash from transactions where id = ${transaction.id}`;
      const res = await fetch(`${strict.baseUrl}/api/v1/transaction/status?transactionId=${transaction.id}`);
      expect(((await res.json()) as any).data.transaction.hash).toBe(row?.hash);
      // The lenient app still reads the held replica, and says how far behind it is.
      const lenient = await readiness(t.baseUrl);
      expect(lenient.body.checks.replica).toMatchObject({ ok: true });
      expect(lenient.body.checks.replica.lagSeconds).toBeGreaterThan(0);
    } finally {
      await strict.stop();
      replica.resumeReplay();
    }
  });

  it('keeps answering with the replica stopped, and says so in readiness', async () => {
    const { transaction } = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    replica.stop('immediate');
    try {
      expect((await status(transaction.id)).transaction.id).toBe(transaction.id);
      expect(
        await waitUntil(async () => (await readiness(t.baseUrl)).body.checks.replica?.error === 'unreachable', {
          timeoutMs: 10_000,
        }),
      ).toBe(true);
      expect((await readiness(t.baseUrl)).status).toBe(200);
      expect((await status(transaction.id)).transaction.id).toBe(transaction.id);
    } finally {
      replica.start();
    }
    expect(
      await waitUntil(async () => (await readiness(t.baseUrl)).body.checks.replica?.ok === true, { timeoutMs: 15_000 }),
    ).toBe(true);
  });
});

describe('read-your-writes per client, not one global fence', () => {
  /** Public API calls from a client of its own: the sibling trusts X-Forwarded-For to tell them apart. */
  const as = (client: string) => ({ 'x-forwarded-for': client });
  const TRICKLE = 5;

  it('a steady trickle of an outsider’s writes sends no other reader to the primary; each reader still sees its own', async () => {
    const proxied = await startSibling(t, { TRUST_PROXY: 'true' });
    const post = (client: string, path: string, body: unknown) =>
      fetch(`${proxied.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...as(client) },
        body: JSON.stringify(body),
      });
    const readerStatus = async (id: string) =>
      (
        (await (
          await fetch(`${proxied.baseUrl}/api/v1/transaction/status?transactionId=${id}`, { headers: as(READER) })
        ).json()) as any
      ).data.transaction.hash as string;
    const readerHistoryHash = async (id: string) => {
      const res = await fetch(`${proxied.baseUrl}/api/v1/transaction/history?addresses=${WALLETS.bitcoin}`, {
        headers: as(READER),
      });
      const items = ((await res.json()) as { data: { id: string; hash: string }[] }).data;
      return items.find((item) => item.id === id)?.hash;
    };
    const READER = '198.51.100.1';
    const OUTSIDER = '198.51.100.2';
    const support = await callerFor(t.app, (await signedInUser(t.app, 'support')).headers);
    const affiliate = await signedInUser(t.app, 'affiliate');
    const asAffiliate = await callerFor(t.app, affiliate.headers);
    const readers = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const outsiders = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    await catchUpThenHold();
    try {
      // A change only the primary has: whoever reads it was sent to the primary.
      const quiet = `0x${randomHex()}`;
      await quietlySetHash(readers.transaction.id, quiet);
      let replicaServed = 0;
      let searchesOnReplica = 0;
      let historiesOnReplica = 0;
      for (let i = 0; i < TRICKLE; i++) {
        const junk = await post(OUTSIDER, '/api/v1/transaction/track', {
          transactionId: outsiders.transaction.id,
          txHash: randomHex(),
        });
        expect(junk.status).toBe(200);
        if ((await readerStatus(readers.transaction.id)) === '') replicaServed++;
        if ((await support.transactions.search({ query: quiet })).items.length === 0) searchesOnReplica++;
        if ((await readerHistoryHash(readers.transaction.id)) === '') historiesOnReplica++;
      }
      expect({ replicaServed, searchesOnReplica, historiesOnReplica }).toEqual({
        replicaServed: TRICKLE,
        searchesOnReplica: TRICKLE,
        historiesOnReplica: TRICKLE,
      });

      // Its own writes: the reader's track of its swap, an affiliate session's new referral code.
      const own = randomHex();
      expect(
        (await post(READER, '/api/v1/transaction/track', { transactionId: readers.transaction.id, txHash: own }))
          .status,
      ).toBe(200);
      expect(await readerStatus(readers.transaction.id)).toBe(own);
      expect(await readerHistoryHash(readers.transaction.id)).toBe(own);
      const code = `OWN${randomHex(4)}`.toUpperCase();
      await asAffiliate.affiliates.createCode({ code });
      const overview = await asAffiliate.affiliates.overview({ range: '30d' });
      expect(overview.codes.map((c: { code: string }) => c.code)).toContain(code);
    } finally {
      replica.resumeReplay();
      await proxied.stop();
    }
  });
});
