import { afterEach, describe, expect, it } from 'vitest';
import { fakeHex } from '../simulator-kit';
import { startThorchainSimulator } from './simulator';

const named = '0x00000000000000000000000000000000000000aa';

/** The status of `hash`, after observing it with a memo naming `named`, then `others` more deposits. */
async function destinationAfter(remember: number, others: number) {
  const sim = await startThorchainSimulator({ port: 0, remember });
  running.push(sim);
  sim.configure({ settleAfterPolls: 0 });
  const hash = fakeHex(`memory-first-${remember}-${others}`);
  sim.observe({ hash, memo: `=:ETH.ETH:${named}`, fromAsset: 'BTC.BTC', toAsset: 'ETH.ETH', amount: '10000000' });
  for (let i = 0; i < others; i += 1) {
    sim.observe({ hash: fakeHex(`memory-other-${remember}-${i}`), fromAsset: 'BTC.BTC', toAsset: 'ETH.ETH' });
  }
  const answer = (await fetch(`${sim.url}/thorchain/tx/status/${hash}`).then((r) => r.json())) as {
    out_txs: { to_address: string }[];
  };
  return answer.out_txs[0]?.to_address;
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

describe('a simulator left running remembers a bounded history', () => {
  it('keeps a swap while fewer than `remember` came after it', async () => {
    expect(await destinationAfter(3, 2)).toBe(named);
  });

  it('forgets the oldest swap once `remember` more came after it (a status then starts a fresh one)', async () => {
    expect(await destinationAfter(2, 2)).not.toBe(named);
  });
});
