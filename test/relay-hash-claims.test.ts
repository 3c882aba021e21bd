import { describe, expect, it } from 'vitest';
import { hashKey } from '../server/transactions/keys';
import type { TestApp } from './support/app';
import { firstRow } from './support/assertions';
import { USDC_ETH_TO_ARB } from './support/fixtures';
import { executeSwap, randomHex, waitForStatus } from './support/flows';
import { withTrackingApp } from './support/tracking-app';

let t: TestApp;
withTrackingApp(2, (app) => {
  t = app;
});

const track = (transactionId: string, txHash: string) => t.post('/api/v1/transaction/track', { transactionId, txHash });

const events = (id: string) =>
  t.app.sql<{ type: string; message: string; data: any }[]>`
    select type, message, data from transaction_events where transaction_id = ${id} order by id`;

const row = (id: string) =>
  firstRow(t.app.sql`select status, hash, inbound_hash, poll_attempts from transactions where id = ${id}`);

/** A USDC swap through Relay, whose deposit only the client's report brings (no deposit of the simulator's own). */
async function relaySwap() {
  t.sims.RELAY.configure({ autoDepositMs: null });
  return (await executeSwap(t, USDC_ETH_TO_ARB, 'RELAY')).transaction.id as string;
}

describe('a Relay swap whose reported hash is verified as another transaction’s', () => {
  it('is told once, and the hash Relay reports is not taken back only to be rejected again', async () => {
    const hash = `0x${randomHex()}`;
    const owner = await relaySwap();
    await t.app.sql`update transactions set hash = ${hash}, hash_key = ${hashKey(hash)}, hash_verified_at = now(),
      next_poll_at = null where id = ${owner}`;
    const swap = await relaySwap();

    expect((await track(swap, hash)).status).toBe(200);
    const done = await waitForStatus(t, swap, (tx) => tx.status !== 'PENDING');

    expect(done.transaction).toMatchObject({ status: 'SUCCESS', hash: '', inboundHash: '' });
    const seen = await events(swap);
    const rejected = seen.filter((e) => e.type === 'hash_rejected');
    expect(rejected.map((e) => e.data.reason)).toEqual(['it is already verified as another transaction’s deposit']);
    expect(seen.filter((e) => e.type === 'hash_updated' && e.data.inboundHash)).toEqual([]);
  });
});

describe('two Relay swaps sent the same hash', () => {
  it("the second is not paid by the first's deposit, and its report is never called rejected", async () => {
    const hash = `0x${randomHex()}`;
    const first = await relaySwap();
    await track(first, hash);
    await waitForStatus(t, first, (tx) => tx.status === 'SUCCESS');

    const second = await relaySwap();
    const reported = await track(second, hash);
    expect(reported.body.data.transaction).toMatchObject({ hash, status: 'PENDING' });
    // Relay is asked a few times: a deposit it took would show by then.
    const polled = async () => {
      const now = await row(second);
      return now.status !== 'PENDING' || Number(now.poll_attempts) >= 4;
    };
    for (let i = 0; i < 100 && !(await polled()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await row(second)).toMatchObject({ status: 'PENDING', hash, inbound_hash: '' });
    expect(Number((await row(second)).poll_attempts)).toBeGreaterThanOrEqual(4);
    const types = (await events(second)).map((e) => e.type);
    expect(types).not.toContain('hash_rejected');
    expect(types).not.toContain('hash_updated');
  });

  it('each swap paid by its own deposit completes without a rejection', async () => {
    const swaps = [await relaySwap(), await relaySwap()];
    const hashes = swaps.map(() => `0x${randomHex()}`);
    for (const [i, id] of swaps.entries()) await track(id, hashes[i] as string);
    for (const [i, id] of swaps.entries()) {
      const done = await waitForStatus(t, id, (tx) => tx.status !== 'PENDING');
      expect(done.transaction).toMatchObject({ status: 'SUCCESS', hash: hashes[i], inboundHash: hashes[i] });
      const types = (await events(id)).map((e) => e.type);
      expect(types.filter((type) => type === 'hash_rejected' || type === 'track_ignored')).toEqual([]);
      expect(types.filter((type) => type === 'hash_updated')).toHaveLength(2);
    }
  });
});
