import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app';
import { BTC_TO_ETH } from '../../test/support/fixtures';
import { executeSwap, randomHex } from '../../test/support/flows';
import { expireUnfundedSwaps } from '../tracking/expiry';
import { pollTransaction } from '../tracking/poll';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const OTHER_RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

async function row(id: string) {
  const [tx] = await t.app.sql<{ status: string; substatus: string | null; deposit_deadline: Date }[]>`
    select status, substatus, deposit_deadline from transactions where id = ${id}`;
  if (!tx) throw new Error(`no transaction ${id}`);
  return tx;
}

async function expireBoth(ids: string[]) {
  const latest = Math.max(...(await Promise.all(ids.map(row))).map((r) => new Date(r.deposit_deadline).getTime()));
  await expireUnfundedSwaps(t.app, new Date(latest + t.app.config.deposits.expiryGraceMs + 1000));
  for (const id of ids) expect(await row(id)).toMatchObject({ status: 'FAILED', substatus: 'EXPIRED' });
}

describe('a late hash through the track path, simulated', () => {
  it('reaches the simulated chain before the node is asked, and is tied to its own swap’s vault and memo', async () => {
    // Two deposit-address swaps for different recipients: the second's quote is THORNode's latest.
    const first = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const second = (await executeSwap(t, { ...BTC_TO_ETH, recipient: OTHER_RECIPIENT }, 'THORCHAIN')).transaction
      .id as string;
    await expireBoth([first, second]);

    // The first swap's wallet paid late, following its own quote, and reports the hash through the API only.
    const late = await t.post('/api/v1/transaction/track', { transactionId: first, txHash: randomHex() });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body.data).toMatchObject({ final: false, tracking: true, transaction: { status: 'PENDING' } });
    for (let poll = 0; poll < 10 && (await row(first)).status === 'PENDING'; poll++)
      await pollTransaction(t.app, first);
    expect(await row(first)).toMatchObject({ status: 'SUCCESS', substatus: 'COMPLETED' });

    const lateToo = await t.post('/api/v1/transaction/track', { transactionId: second, txHash: randomHex() });
    expect(lateToo.status, JSON.stringify(lateToo.body)).toBe(200);
    expect(lateToo.body.data.transaction.status).toBe('PENDING');
  });

  it('never re-opens a second identical swap on a deposit already verified as the first one’s', async () => {
    const [first, second] = [
      (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string,
      (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string,
    ];
    await expireBoth([first, second]);
    const deposit = randomHex();
    expect((await t.post('/api/v1/transaction/track', { transactionId: first, txHash: deposit })).status).toBe(200);
    const again = await t.post('/api/v1/transaction/track', { transactionId: second, txHash: deposit });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(await row(second)).toMatchObject({ status: 'FAILED', substatus: 'EXPIRED' });
  });
});
