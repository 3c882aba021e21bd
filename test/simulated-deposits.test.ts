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
  { provider: 'RELAY', body: ETH_TO_BTC, hash: () => `0x${randomHex()}` },
  { provider: 'CHAINFLIP', body: BTC_TO_ETH, hash: () => randomHex() },
  { provider: 'THORCHAIN', body: BTC_TO_ETH, hash: () => randomHex() },
  { provider: 'LIFI', body: USDC_ETH_TO_ARB, hash: () => `0x${randomHex()}` },
] as const;

const lowered = (hash: string) => hash.toLowerCase();

describe('offline, a swap waits for its deposit as it would live', () => {
  for (const flow of FLOWS) {
    it(`${flow.provider}: the hash a client tracks right after execute finds the swap, which settles under it`, async () => {
      t.sims[flow.provider].configure({ outcome: 'success', autoDepositMs: null });
      const id = (await executeSwap(t, flow.body, flow.provider)).transaction.id as string;
      const hash = flow.hash();
      const tracked = await t.post('/api/v1/transaction/track', { transactionId: id, txHash: hash });
      expect(tracked.status, JSON.stringify(tracked.body)).toBe(200);

      const byHash = await t.json(`/api/v1/transaction/status?hash=${hash}`);
      expect(byHash.status, JSON.stringify(byHash.body)).toBe(200);
      expect(byHash.body.data.transaction.id).toBe(id);

      const settled = await waitForStatus(t, id, (tx) => tx.status !== 'PENDING');
      expect(settled.transaction.status).toBe('SUCCESS');
      expect(lowered(settled.transaction.hash)).toBe(lowered(hash));
      expect(lowered(settled.transaction.inboundHash || hash)).toBe(lowered(hash));
      const again = await t.json(`/api/v1/transaction/status?hash=${hash}`);
      expect(again.body.data.transaction).toMatchObject({ id, status: 'SUCCESS' });
    });
  }

  for (const provider of ['RELAY', 'CHAINFLIP'] as const) {
    it(`${provider}: with no deposit reported, the swap keeps waiting however often it is polled`, async () => {
      t.sims[provider].configure({ outcome: 'success', autoDepositMs: null });
      const body = provider === 'RELAY' ? ETH_TO_BTC : BTC_TO_ETH;
      const id = (await executeSwap(t, body, provider)).transaction.id as string;
      const polled = () => t.app.sql<{ n: number }[]>`select poll_attempts as n from transactions where id = ${id}`;
      for (let i = 0; i < 300 && ((await polled())[0]?.n ?? 0) < 6; i++) await new Promise((r) => setTimeout(r, 25));
      expect((await polled())[0]?.n).toBeGreaterThanOrEqual(6);
      const status = await t.json(`/api/v1/transaction/status?transactionId=${id}`);
      expect(status.body.data.transaction).toMatchObject({ status: 'PENDING', hash: '', inboundHash: '' });
    });
  }
});
