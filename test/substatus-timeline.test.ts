import { describe, expect, it } from 'vitest';
import type { TestApp } from './support/app';
import { BTC_TO_ETH, ETH_TO_BTC, USDC_ETH_TO_ARB } from './support/fixtures';
import { executeSwap, randomHex, waitForStatus } from './support/flows';
import { withTrackingApp } from './support/tracking-app';

let t: TestApp;
withTrackingApp(3, (app) => {
  t = app;
});

const FLOWS = [
  { provider: 'RELAY', body: ETH_TO_BTC, hash: undefined, tracker: /^https:\/\/relay\.link\/transaction\/./ },
  { provider: 'CHAINFLIP', body: BTC_TO_ETH, hash: undefined, tracker: /^https:\/\/scan\.chainflip\.io\/channels\/./ },
  { provider: 'THORCHAIN', body: BTC_TO_ETH, hash: () => randomHex(), tracker: /^https:\/\/track\.ninerealms\.com\/./ },
  {
    provider: 'LIFI',
    body: USDC_ETH_TO_ARB,
    hash: () => `0x${randomHex()}`,
    tracker: /^https:\/\/scan\.li\.fi\/tx\/0x/,
  },
] as const;

const EXPECTED = {
  success: { status: 'SUCCESS', substatus: 'COMPLETED' },
  failure: { status: 'FAILED', substatus: 'FAILED' },
  refund: { status: 'REFUND', substatus: 'REFUNDED' },
} as const;

/** Relay's `failure` is a refund in progress until it has held for RELAY_FAILURE_FINAL_AFTER_MS (minutes). */
const expectedEnding = (provider: string, outcome: keyof typeof EXPECTED) =>
  provider === 'RELAY' && outcome === 'failure'
    ? ({ status: 'PENDING', substatus: 'REFUND_IN_PROGRESS' } as const)
    : EXPECTED[outcome];

/** The catalog's explorer template of a chain, filled with a hash. */
async function explorerFor(chain: string, hash: string) {
  const [row] = await t.app.sql`select explorer_tx_url from chains where key = ${chain}`;
  return String(row?.explorer_tx_url).replace('{hash}', encodeURIComponent(hash));
}

describe('substatus and explorer links for every simulator outcome', () => {
  for (const flow of FLOWS) {
    for (const outcome of ['success', 'failure', 'refund'] as const) {
      it(`${flow.provider} ${outcome} ends ${expectedEnding(flow.provider, outcome).substatus} with the right explorers`, async () => {
        // A flow whose client reports its hash deposits under that hash, as live; the others deposit at once.
        t.sims[flow.provider].configure({ outcome, ...(flow.hash ? { autoDepositMs: null } : {}) });
        const executed = await executeSwap(t, flow.body, flow.provider);
        const id = executed.transaction.id;
        if (flow.hash) await t.post('/api/v1/transaction/track', { transactionId: id, txHash: flow.hash() });
        const expected = expectedEnding(flow.provider, outcome);
        const { transaction: tx } = await waitForStatus(t, id, (s) => s.substatus === expected.substatus);
        expect(tx).toMatchObject(expected);

        expect(tx.explorerUrls.provider).toMatch(flow.tracker);
        if (tx.inboundHash) {
          expect(tx.explorerUrls.inbound).toBe(await explorerFor(flow.body.srcChain, tx.inboundHash));
        }
        if (tx.outboundHash) {
          // A refund pays the sender back on the source chain.
          const chain = outcome === 'refund' ? flow.body.srcChain : flow.body.dstChain;
          expect(tx.explorerUrls.outbound).toBe(await explorerFor(chain, tx.outboundHash));
        } else {
          expect(tx.explorerUrls).not.toHaveProperty('outbound');
        }
        if (outcome === 'success') expect(tx.explorerUrls.outbound).toBeTruthy();

        const history = await t.json(`/api/v1/transaction/history?transactionId=${id}`);
        expect(history.body.data[0]).toMatchObject({ ...expected, explorerUrls: tx.explorerUrls });
      });
    }
  }

  it('a partial THORChain streaming fill ends SUCCESS / PARTIAL', async () => {
    const executed = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const hash = randomHex();
    const observed = await fetch(`${t.sims.THORCHAIN.url}/__sim/thorchain/observe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash, outcome: 'partial' }),
    });
    expect(observed.status).toBe(200);
    await t.post('/api/v1/transaction/track', { transactionId: executed.transaction.id, txHash: hash });
    const done = await waitForStatus(t, executed.transaction.id, (s) => s.status !== 'PENDING');
    expect(done.transaction).toMatchObject({ status: 'SUCCESS', substatus: 'PARTIAL' });
    expect(done.transaction.explorerUrls.outbound).toBe(await explorerFor('ethereum', done.transaction.outboundHash));
  });
});

describe('GET /api/v1/transaction/events', () => {
  it('lists the public steps oldest first, with the state each left and no provider payloads', async () => {
    t.sims.LIFI.configure({ outcome: 'success', autoDepositMs: null });
    const executed = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
    const id = executed.transaction.id;
    const hash = `0x${randomHex()}`;
    await t.post('/api/v1/transaction/track', { transactionId: id, txHash: hash });
    const done = await waitForStatus(t, id, (s) => s.status === 'SUCCESS');

    const byId = await t.json(`/api/v1/transaction/events?transactionId=${id}`);
    expect(byId.status).toBe(200);
    const events = byId.body.data;
    expect(events[0]).toMatchObject({ source: 'execute', type: 'created', status: 'PENDING', substatus: null });
    const tracked = events.findIndex((e: { source: string }) => e.source === 'track');
    expect(events[tracked]).toMatchObject({ type: 'track', status: 'PENDING', hash });
    expect(events.slice(0, tracked).every((e: { hash: string }) => e.hash === '')).toBe(true);
    expect(events.map((e: { id: number }) => e.id)).toEqual(
      [...events.map((e: { id: number }) => e.id)].sort((a, b) => a - b),
    );
    expect(events.every((e: { at: string }) => !Number.isNaN(Date.parse(e.at)))).toBe(true);
    expect(events.slice(1).every((e: { source: string }) => ['poll', 'track'].includes(e.source))).toBe(true);
    expect(events.at(-1)).toMatchObject({
      status: 'SUCCESS',
      substatus: 'COMPLETED',
      hash,
      outboundHash: done.transaction.outboundHash,
    });
    const substatuses = events.map((e: { substatus: string | null }) => e.substatus);
    expect(substatuses).toContain('WAITING_DESTINATION');
    const text = JSON.stringify(events);
    for (const internal of ['upstreamState', 'message', 'data', 'PENDING/WAIT']) expect(text).not.toContain(internal);

    const byHash = await t.json(`/api/v1/transaction/events?hash=${done.transaction.outboundHash}`);
    expect(byHash.body.data).toEqual(events);
  });

  it('says each change once: one step per provider answer, its badge the status after it (Chainflip)', async () => {
    t.sims.CHAINFLIP.configure({ outcome: 'success' });
    const executed = await executeSwap(t, BTC_TO_ETH, 'CHAINFLIP');
    const id = executed.transaction.id;
    await waitForStatus(t, id, (s) => s.status === 'SUCCESS');
    const recorded = await t.app.sql<{ type: string; substatus: string | null }[]>`
      select type, data->>'substatus' as substatus from transaction_events where transaction_id = ${id} order by id`;
    // The provider reported completion in a progress event of its own, written before the status moved.
    expect(recorded.findIndex((e) => e.type === 'progress' && e.substatus === 'COMPLETED')).toBeLessThan(
      recorded.findIndex((e) => e.type === 'status_changed'),
    );
    expect(recorded.findIndex((e) => e.type === 'progress' && e.substatus === 'COMPLETED')).toBeGreaterThan(-1);

    type Step = Record<'type' | 'status' | 'hash' | 'inboundHash' | 'outboundHash', string> & {
      substatus: string | null;
    };
    const steps: Step[] = (await t.json(`/api/v1/transaction/events?transactionId=${id}`)).body.data;
    const state = ({ status, substatus, hash, inboundHash, outboundHash }: Step) =>
      JSON.stringify([status, substatus, hash, inboundHash, outboundHash]);
    expect(steps.length).toBeLessThan(recorded.length);
    for (const [i, step] of steps.entries()) {
      if (i > 0 && !['track', 'created'].includes(step.type)) expect(state(step)).not.toBe(state(steps[i - 1]!));
    }
    const entered = (substatus: string) =>
      steps.filter((s, i) => s.substatus === substatus && steps[i - 1]?.substatus !== substatus).length;
    expect(entered('WAITING_DESTINATION')).toBe(1);
    expect(entered('COMPLETED')).toBe(1);
    expect(steps.filter((s) => s.substatus === 'COMPLETED' && s.status !== 'SUCCESS')).toEqual([]);
    expect(steps.at(-1)).toMatchObject({ type: 'status_changed', status: 'SUCCESS', substatus: 'COMPLETED' });
    expect(steps.filter((s) => s.status === 'SUCCESS')).toHaveLength(1);
  });

  it('answers 404 for an unknown transaction and 400 without a lookup key', async () => {
    const unknown = await t.json('/api/v1/transaction/events?transactionId=tx_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', field: 'transactionId' });
    const unknownHash = await t.json(`/api/v1/transaction/events?hash=0x${randomHex()}`);
    expect(unknownHash.status).toBe(404);
    const missing = await t.json('/api/v1/transaction/events');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'transactionId' });
    const tooLong = await t.json(`/api/v1/transaction/events?transactionId=${'x'.repeat(65)}`);
    expect(tooLong.status).toBe(400);
  });
});

describe('GET /api/v1/transaction/execution', () => {
  it('gives the execute answer back, outstanding until a deposit hash is known', async () => {
    t.sims.THORCHAIN.configure({ settleAfterPolls: 10_000 });
    const executed = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const id = executed.transaction.id;
    const before = await t.json(`/api/v1/transaction/execution?transactionId=${id}`);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ outstanding: true, execution: executed });
    expect(executed.exec.meta).toMatchObject({ executionMode: 'deposit-address' });
    expect(executed.exec.meta.depositMemo).toBeTruthy();

    await t.post('/api/v1/transaction/track', { transactionId: id, txHash: randomHex() });
    const after = await t.json(`/api/v1/transaction/execution?transactionId=${id}`);
    expect(after.body.data).toEqual({ outstanding: false, execution: executed });
  });

  it('answers 404 for an unknown transaction', async () => {
    const unknown = await t.json('/api/v1/transaction/execution?transactionId=tx_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND' });
  });
});
