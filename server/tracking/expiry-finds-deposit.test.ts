import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app';
import { BTC_TO_ETH, WALLETS } from '../../test/support/fixtures';
import { executeSwap, randomHex } from '../../test/support/flows';
import { expireUnfundedSwaps } from './expiry';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

/** 0.25 BTC, the fixture's amount, in THORNode's 1e8 units. */
const LOCKED_AMOUNT = '25000000';

async function row(id: string) {
  const [tx] = await t.app.sql<
    {
      status: string;
      substatus: string | null;
      hash: string;
      deposit_deadline: Date;
      tracking_context: { memo: string; inboundAddress: string };
    }[]
  >`select status, substatus, hash, deposit_deadline, tracking_context from transactions where id = ${id}`;
  if (!tx) throw new Error(`no transaction ${id}`);
  return tx;
}

/** THORChain's network saw a deposit (Midgard lists it under its sender) that nobody reported to us. */
async function unreportedDeposit(deposit: Record<string, string>) {
  const observed = await fetch(`${t.sims.THORCHAIN.url}/__sim/thorchain/observe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: LOCKED_AMOUNT, fromAddress: WALLETS.bitcoin, ...deposit }),
  });
  expect(observed.status).toBe(200);
  return ((await observed.json()) as { hash: string }).hash;
}

const pastGrace = (deadline: Date) =>
  new Date(new Date(deadline).getTime() + t.app.config.deposits.expiryGraceMs + 1000);

describe('before a deposit-address swap expires, its deposit is looked for by depositor and memo', () => {
  it('attaches a deposit Midgard lists from the depositor with our memo to our vault, verified, instead of expiring', async () => {
    const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const { tracking_context: context, deposit_deadline } = await row(id);
    const hash = await unreportedDeposit({ hash: randomHex(), memo: context.memo, toAddress: context.inboundAddress });

    expect(await expireUnfundedSwaps(t.app, pastGrace(deposit_deadline))).toBe(0);
    const kept = await row(id);
    expect(kept.status).toBe('PENDING');
    expect(kept.hash.toUpperCase()).toBe(hash.toUpperCase());
    const [event] = await t.app.sql<{ message: string }[]>`
      select message from transaction_events where transaction_id = ${id} and data->>'foundBeforeExpiry' = 'true'`;
    expect(event?.message).toMatch(/found at THORChain by the depositor and memo .* verified/);
  });

  it('expires it when the depositor’s deposits carry another memo, went to another vault, or are another swap’s', async () => {
    // An identical swap before it (same memo, same vault) whose deposit was found and attached.
    const other = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const { tracking_context: context, deposit_deadline: otherDeadline } = await row(other);
    await unreportedDeposit({ hash: randomHex(), memo: context.memo, toAddress: context.inboundAddress });
    await expireUnfundedSwaps(t.app, pastGrace(otherDeadline));
    expect((await row(other)).hash).not.toBe('');

    const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const { deposit_deadline } = await row(id);
    expect((await row(id)).tracking_context.memo).toBe(context.memo);
    await unreportedDeposit({
      hash: randomHex(),
      memo: `=:ETH.ETH:${WALLETS.evm2}`,
      toAddress: context.inboundAddress,
    });
    await unreportedDeposit({ hash: randomHex(), memo: context.memo, toAddress: 'bc1qsomeoneelsesvault0000000000' });

    await expireUnfundedSwaps(t.app, pastGrace(deposit_deadline));
    expect(await row(id)).toMatchObject({ status: 'FAILED', substatus: 'EXPIRED', hash: '' });
  });

  it('does not expire it while Midgard cannot be asked', async () => {
    const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    const { deposit_deadline } = await row(id);
    t.sims.THORCHAIN.configure({ faults: { status: 'error5xx' } });
    try {
      await expireUnfundedSwaps(t.app, pastGrace(deposit_deadline));
      expect((await row(id)).status).toBe('PENDING');
    } finally {
      t.sims.THORCHAIN.configure({ faults: { status: 'none' } });
    }
  });
});
