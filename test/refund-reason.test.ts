import { describe, expect, it } from 'vitest';
import { swapperSees } from '../app/_kit/substatus';
import type { CatalogSnapshot } from '../server/catalog/snapshot';
import { mapSwapStatus } from '../server/providers/chainflip/status';
import type { SwapStatusBody } from '../server/providers/chainflip/wire';
import { whatCounts } from '../server/tracking/apply-status';
import type { PollFields } from '../server/tracking/poll-row';
import { presentTransaction } from '../server/transactions/present';
import type { StatusFields } from '../server/transactions/status-fields';

const catalog = { chain: () => undefined } as unknown as CatalogSnapshot;
const asset = { id: 1, symbol: 'BTC', contract: null, image: null, chain: 'bitcoin', decimals: 8 };

// Chainflip's "deposit failed w/ refund" sample (swap.test.ts), its refund broadcast but not witnessed yet.
const rejected = {
  state: 'FAILED',
  srcAsset: 'BTC',
  srcChain: 'Bitcoin',
  destAsset: 'ETH',
  destChain: 'Ethereum',
  fees: [],
  deposit: {
    amount: '1000000',
    txRef: '9dccc57dc24a62635e946b06629a01646741e728edeacfed0e30d9638e82b378',
    failure: {
      failedAt: 21689748000,
      failedBlockIndex: '3614958-465',
      mode: 'DEPOSIT_REJECTED',
      reason: { name: 'BelowMinimumDeposit', message: 'The deposit amount was below the minimum.' },
    },
  },
  refundEgress: { amount: '1000000', scheduledAt: 21689748000, scheduledBlockIndex: '3614958-1117', txRef: '7cc6' },
} as unknown as SwapStatusBody;

describe('a rejected Chainflip deposit tells the swapper why', () => {
  it('carries the provider reason from the status answer, through the poll, to the public transaction and its words', () => {
    const result = mapSwapStatus(rejected);
    expect(result).toMatchObject({
      substatus: 'REFUND_IN_PROGRESS',
      reason: 'The deposit amount was below the minimum.',
    });
    const pending = {
      id: 'tx_rejected',
      provider: 'CHAINFLIP',
      status: 'PENDING',
      substatus: 'WAITING_SOURCE_CONFIRMATIONS',
      hash: '',
      inboundHash: '',
      outboundHash: null,
      trackingContext: { channelId: '1-Bitcoin-2' },
      srcAsset: asset,
      srcAmount: '0.01',
      dstAsset: { ...asset, symbol: 'ETH', decimals: 18 },
    } as unknown as PollFields;
    const { patch } = whatCounts(pending, result, {});
    expect(patch.trackingContext).toMatchObject({ channelId: '1-Bitcoin-2' });
    const row = {
      ...pending,
      ...patch,
      srcChain: 'bitcoin',
      dstChain: 'ethereum',
      srcAsset: asset,
      srcAmount: '0.01',
      dstAmount: '0.3',
      walletAddress: 'bc1q',
      recipientWalletAddress: '0xabc',
      quotedFeeUsd: null,
      feeAmount: null,
      feeCurrency: null,
      feeAmountUsd: null,
      feeUsd: null,
      feeDetails: null,
      createdAt: new Date(0),
      updatedAt: new Date(0),
      finalizedAt: null,
    } as unknown as StatusFields;
    const tx = presentTransaction(row, catalog);
    expect(tx.reason).toBe('The deposit amount was below the minimum.');
    const seen = swapperSees(tx, 'Chainflip');
    expect(seen.headline).toBe('Refund on its way');
    expect(seen.text).toBe(
      'Chainflip could not swap it: the deposit amount was below the minimum. Chainflip is sending the deposit back to the wallet it came from, less the network fee for sending it back; nothing is needed from you.',
    );
  });

  it('a poll that gives no reason keeps the one recorded; a swap no provider explained has none', () => {
    const before = { trackingContext: { reason: 'The deposit was rejected by the broker' } } as unknown as PollFields;
    const { patch } = whatCounts(
      { ...before, status: 'PENDING', substatus: 'REFUND_IN_PROGRESS', hash: 'h', inboundHash: 'h' } as PollFields,
      { status: 'REFUND', detail: 'refunded', upstreamState: 'COMPLETED', substatus: 'REFUNDED' },
      {},
    );
    expect(patch.trackingContext).toBeUndefined();
    const row = {
      trackingContext: {},
      srcAsset: asset,
      dstAsset: asset,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    };
    expect(presentTransaction(row as unknown as StatusFields, catalog).reason).toBeNull();
  });
});
