import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLifiSimulator } from '../server/providers/lifi/simulator';
import type { RunningSimulator } from '../server/providers/simulator-kit';
import { ADDR, WALLETS } from './support/fixtures';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startLifiSimulator();
});
afterAll(() => sim?.close());
beforeEach(() => sim.reset());

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

/** A USDC Ethereum → Arbitrum step built for `recipient`, as execute asks LI.FI for it. */
async function builtStep(recipient: string, amount: string) {
  const routes = await post('/v1/advanced/routes', {
    fromChainId: 1,
    fromAmount: amount,
    fromTokenAddress: ADDR.ethUsdc,
    toChainId: 42161,
    toTokenAddress: ADDR.arbUsdc,
    fromAddress: WALLETS.evm,
    toAddress: recipient,
  });
  expect(routes.status).toBe(200);
  const built = await post('/v1/advanced/stepTransaction', routes.body.routes[0].steps[0]);
  expect(built.status).toBe(200);
  return built.body as { transactionId: string };
}

const status = async (txHash: string) => {
  const res = await fetch(`${sim.url}/v1/status?txHash=${txHash}&fromChain=1&toChain=42161`);
  return (await res.json()) as any;
};

describe('LI.FI simulator with swaps in flight side by side', () => {
  it('answers a status lookup by transaction id with that transfer, not the latest one built', async () => {
    sim.configure({ autoDepositMs: 0 });
    sim.script(WALLETS.evm2, 'success');
    sim.script(WALLETS.evm, 'refund');
    const first = await builtStep(WALLETS.evm2, '2500000000');
    const second = await builtStep(WALLETS.evm, '1000000000');
    for (let i = 0; i < 3; i++) await status(first.transactionId);
    const settled = await status(first.transactionId);
    expect(settled).toMatchObject({
      transactionId: first.transactionId,
      toAddress: WALLETS.evm2,
      status: 'DONE',
      substatus: 'COMPLETED',
      sending: { amount: '2500000000' },
    });
    for (let i = 0; i < 3; i++) await status(second.transactionId);
    expect(await status(second.transactionId)).toMatchObject({
      transactionId: second.transactionId,
      toAddress: WALLETS.evm,
      substatus: 'REFUNDED',
    });
  });

  it('keeps a built step NOT_FOUND until its deposit is seen, then shows the reported hash as the sending one', async () => {
    sim.configure({ settleAfterPolls: 1 });
    const step = await builtStep(WALLETS.evm2, '2500000000');
    const context = { fromChainId: 1, toChainId: 42161, bridge: 'across', transactionId: step.transactionId };
    for (let i = 0; i < 3; i++) expect(await status(step.transactionId)).toEqual({ status: 'NOT_FOUND' });

    const hash = `0x${'a1'.repeat(32)}`;
    expect(await post('/__sim/deposits', { hash, context })).toEqual({ status: 200, body: { seen: true } });
    expect(await status(hash)).toEqual({ status: 'NOT_FOUND' });
    expect(await status(hash)).toMatchObject({
      status: 'DONE',
      transactionId: step.transactionId,
      sending: { txHash: hash, amount: '2500000000' },
    });
    expect(await status(step.transactionId)).toMatchObject({ status: 'DONE', sending: { txHash: hash } });
  });

  it('refuses a second deposit, one for a step it never built, and a hash already taken; an unknown hash is NOT_FOUND', async () => {
    const first = await builtStep(WALLETS.evm2, '2500000000');
    const second = await builtStep(WALLETS.evm, '1000000000');
    const contextOf = (transactionId: string) => ({ fromChainId: 1, toChainId: 42161, transactionId });
    const hash = `0x${'b2'.repeat(32)}`;
    expect((await post('/__sim/deposits', { hash, context: contextOf(first.transactionId) })).status).toBe(200);

    const refused = await post('/__sim/deposits', {
      hash: `0x${'b3'.repeat(32)}`,
      context: contextOf(first.transactionId),
    });
    expect(refused).toEqual({ status: 404, body: { message: 'no swap waits for this deposit' } });
    expect((await post('/__sim/deposits', { hash, context: contextOf(second.transactionId) })).status).toBe(404);
    expect((await post('/__sim/deposits', { hash: `0x${'b4'.repeat(32)}`, context: contextOf('0x01') })).status).toBe(
      404,
    );
    expect((await post('/__sim/deposits', { hash: `0x${'b5'.repeat(32)}`, context: {} })).status).toBe(404);

    for (let i = 0; i < 3; i++) expect(await status(`0x${'b3'.repeat(32)}`)).toEqual({ status: 'NOT_FOUND' });
    expect(await status(second.transactionId)).toEqual({ status: 'NOT_FOUND' });
  });

  it('deposits by itself under its own hash when the auto deposit is due', async () => {
    sim.configure({ settleAfterPolls: 1, autoDepositMs: 60 * 60 * 1000 });
    const step = await builtStep(WALLETS.evm2, '2500000000');
    expect(await status(step.transactionId)).toEqual({ status: 'NOT_FOUND' });
    sim.configure({ autoDepositMs: 0 });
    expect(await status(step.transactionId)).toEqual({ status: 'NOT_FOUND' });
    const done = await status(step.transactionId);
    expect(done).toMatchObject({ status: 'DONE', transactionId: step.transactionId });
    expect(done.sending.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.sending.txHash).not.toBe(step.transactionId);
    expect(await status(done.sending.txHash)).toMatchObject({ status: 'DONE', transactionId: step.transactionId });
  });

  it('refuses scripts without a key or with an unknown ending', async () => {
    expect((await post('/__sim/scripts', { scripts: [{ key: '', outcome: 'success' }] })).status).toBe(400);
    expect((await post('/__sim/scripts', { scripts: [{ key: 'a', outcome: 'maybe' }] })).status).toBe(400);
    expect((await post('/__sim/scripts', { scripts: [{ key: WALLETS.evm, outcome: 'failure' }] })).body).toEqual({
      scripted: 1,
    });
  });
});
