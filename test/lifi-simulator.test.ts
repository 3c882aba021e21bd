import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLifiSimulator } from '../server/providers/lifi/simulator';
import type { RunningSimulator } from '../server/providers/simulator-kit';
import { ADDR, WALLETS } from './support/fixtures';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startLifiSimulator();
});
afterAll(() => sim?.close());

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

describe('LI.FI simulator with swaps in flight side by side', () => {
  it('answers a status lookup by transaction id with that transfer, not the latest one built', async () => {
    sim.script(WALLETS.evm2, 'success');
    sim.script(WALLETS.evm, 'refund');
    const first = await builtStep(WALLETS.evm2, '2500000000');
    const second = await builtStep(WALLETS.evm, '1000000000');
    const status = async (transactionId: string) => {
      const res = await fetch(`${sim.url}/v1/status?txHash=${transactionId}&fromChain=1&toChain=42161`);
      return (await res.json()) as any;
    };
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

  it('refuses scripts without a key or with an unknown ending', async () => {
    expect((await post('/__sim/scripts', { scripts: [{ key: '', outcome: 'success' }] })).status).toBe(400);
    expect((await post('/__sim/scripts', { scripts: [{ key: 'a', outcome: 'maybe' }] })).status).toBe(400);
    expect((await post('/__sim/scripts', { scripts: [{ key: WALLETS.evm, outcome: 'failure' }] })).body).toEqual({
      scripted: 1,
    });
  });
});
