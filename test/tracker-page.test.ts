import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrackerPage } from '../server/transactions/tracker-page';
import { startTestApp, type TestApp } from './support/app';
import { BTC_TO_ETH, USDC_ETH_TO_ARB } from './support/fixtures';
import { executeSwap } from './support/flows';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const endpoint = async (path: string, id: string) =>
  (await t.json(`/api/v1/transaction/${path}?transactionId=${id}`)).body.data;

describe('the /tx/<id> page read on the server', () => {
  it('is what the status, execution and events endpoints answer, with the names and tokens its text needs', async () => {
    const executed = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const id = executed.transaction.id;
    const page = await readTrackerPage(t.app, id);
    if (!page) throw new Error('the swap was not found');

    expect(page.status).toEqual(await endpoint('status', id));
    expect(page.execution).toEqual(await endpoint('execution', id));
    expect(page.timeline).toEqual(await endpoint('events', id));
    // Nothing reported the deposit yet: the page renders "Waiting for you" and the deposit to send.
    expect(page.status.transaction.status).toBe('PENDING');
    expect(page.execution.outstanding).toBe(true);
    expect(page.execution.execution?.exec?.meta.depositAddress).toBe(executed.exec.meta.depositAddress);
    expect(page.chains.find((c) => c.key === 'bitcoin')?.name).toBe('Bitcoin');
    expect(page.sources.find((s) => s.key === 'THORCHAIN')?.name).toBe('THORChain');
    // A native source asset is its chain's gas token.
    expect(page.sourceAssets.src).toMatchObject({ chain: 'bitcoin', isNative: true, symbol: 'BTC', decimals: 8 });
    expect(page.sourceAssets.native).toEqual(page.sourceAssets.src);
  });

  it("finds a token source among its chain's assets, beside the gas token", async () => {
    const executed = await executeSwap(t, USDC_ETH_TO_ARB, 'RELAY');
    const page = await readTrackerPage(t.app, executed.transaction.id);
    expect(page?.sourceAssets.src).toMatchObject({ chain: 'ethereum', symbol: 'USDC', decimals: 6, isNative: false });
    expect(page?.sourceAssets.native).toMatchObject({ chain: 'ethereum', symbol: 'ETH', isNative: true });
  });

  it('serves a stored answer of any other shape (the demo dataset, imports) as none, and still reads', async () => {
    const executed = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const id = executed.transaction.id;
    // The demo dataset's shape: no quote, no providerResult (the /tx page crashed reading its quote).
    const shapes = [{ depositAddress: 'bc1qdemo', amount: '0.1', expiresAt: '2026-01-01T00:00:00Z' }, {}, []];
    for (const shape of shapes) {
      await t.app.sql`update transactions set execution = ${JSON.stringify(shape)}::jsonb where id = ${id}`;
      // t.json fails the test when the answer is not what the OpenAPI document describes.
      expect(await endpoint('execution', id)).toEqual({ outstanding: true, execution: null });
      const page = await readTrackerPage(t.app, id);
      expect(page?.execution.execution).toBeNull();
      expect(page?.status.transaction.id).toBe(id);
    }
  });

  it('is null for an id that names no transaction, and for no id at all', async () => {
    expect(await readTrackerPage(t.app, 'tx_0000000000000000000000')).toBeNull();
    expect(await readTrackerPage(t.app, 'not an id')).toBeNull();
    expect(await readTrackerPage(t.app, ' ')).toBeNull();
  });
});
