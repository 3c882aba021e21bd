import { describe, expect, it } from 'vitest';
import type { FeeItem } from '../types';
import { settledFeeItems } from './fees';
import { mapSwapStatus } from './status';
import { type SwapStatusInput, swapStatusSchema } from './wire';

const fee = (type: string, asset: string, chain: string, amount: string) => ({ type, asset, chain, amount });

/** An ETH → BTC quote: five lines, two of them the pools' fees. */
const QUOTED: [ReturnType<typeof fee>, ...ReturnType<typeof fee>[]] = [
  fee('INGRESS', 'ETH', 'Ethereum', '150000000000000'),
  fee('NETWORK', 'USDC', 'Ethereum', '2450000'),
  fee('EGRESS', 'BTC', 'Bitcoin', '1500'),
  fee('LIQUIDITY', 'ETH', 'Ethereum', '500000000000000'),
  fee('LIQUIDITY', 'USDC', 'Ethereum', '1225000'),
];

const body = (input: Partial<SwapStatusInput>) =>
  swapStatusSchema.parse({
    state: 'WAITING',
    srcAsset: 'ETH',
    srcChain: 'Ethereum',
    destAsset: 'BTC',
    destChain: 'Bitcoin',
    ...input,
  });

const lines = (items: FeeItem[]) =>
  items.map(({ label, amount, currency, basis }) => ({ label, amount, currency, basis }));
const feeLinesOf = (result: ReturnType<typeof mapSwapStatus>) => lines(result.fee?.details as FeeItem[]);

describe('a Chainflip fee recorded line for line as quoted (#46 item 4)', () => {
  it('while only the deposit fee is reported, the other quoted lines stand in, marked not charged yet', () => {
    const result = mapSwapStatus(
      body({ state: 'RECEIVING', deposit: { amount: '1000000000000000000' }, fees: [QUOTED[0]] }),
      QUOTED,
    );
    expect(feeLinesOf(result)).toEqual([
      { label: 'Deposit (ingress) fee', amount: '0.00015', currency: 'ETH', basis: undefined },
      { label: 'Chainflip network fee', amount: '2.45', currency: 'USDC', basis: 'pending' },
      { label: 'Payout (egress) fee', amount: '0.000015', currency: 'BTC', basis: 'pending' },
      { label: 'Liquidity provider fee', amount: '0.0005', currency: 'ETH', basis: 'quoted' },
      { label: 'Liquidity provider fee', amount: '1.225', currency: 'USDC', basis: 'quoted' },
    ]);
    // The recorded USDC part counts the quoted USDC lines: never the deposit fee alone.
    expect(result.fee).toMatchObject({ currency: 'USDC', amount: '3.675' });
  });

  it('once completed, every reported line is the actual one and the liquidity fees stay as quoted', () => {
    const reported = [
      fee('NETWORK', 'USDC', 'Ethereum', '2461000'),
      fee('INGRESS', 'ETH', 'Ethereum', '160000000000000'),
      fee('EGRESS', 'BTC', 'Bitcoin', '1600'),
      fee('BROKER', 'USDC', 'Ethereum', '10000'),
    ];
    const result = mapSwapStatus(
      body({
        state: 'COMPLETED',
        swap: { swappedOutputAmount: '3000000' },
        swapEgress: { amount: '2998400', txRef: 'btc-payout', witnessedAt: 1 },
        fees: reported,
      }),
      QUOTED,
    );
    expect(result.status).toBe('SUCCESS');
    expect(feeLinesOf(result)).toEqual([
      { label: 'Deposit (ingress) fee', amount: '0.00016', currency: 'ETH', basis: undefined },
      { label: 'Chainflip network fee', amount: '2.461', currency: 'USDC', basis: undefined },
      { label: 'Payout (egress) fee', amount: '0.000016', currency: 'BTC', basis: undefined },
      { label: 'Liquidity provider fee', amount: '0.0005', currency: 'ETH', basis: 'quoted' },
      { label: 'Liquidity provider fee', amount: '1.225', currency: 'USDC', basis: 'quoted' },
      { label: 'Broker fee', amount: '0.01', currency: 'USDC', basis: undefined },
    ]);
  });

  it('a line still unreported when the swap is over stands as quoted, not as still to come', () => {
    const items = settledFeeItems([QUOTED[0] as (typeof QUOTED)[number]], QUOTED.slice(0, 3), true);
    expect(items.map((item) => item.basis)).toEqual([undefined, 'quoted', 'quoted']);
  });

  it('a refund pays no quoted swap fee: only what the refund cost, and the amount and transaction going back', () => {
    const refunded = [
      fee('INGRESS', 'ETH', 'Ethereum', '150000000000000'),
      fee('EGRESS', 'ETH', 'Ethereum', '105000000000000'),
      fee('REFUND', 'ETH', 'Ethereum', '2658298'),
    ];
    const result = mapSwapStatus(
      body({
        state: 'COMPLETED',
        swap: { swappedOutputAmount: '0' },
        refundEgress: { amount: '999744999999160000', txRef: '0xrefund', witnessedAt: 1 },
        fees: refunded,
      }),
      QUOTED,
    );
    expect(result).toMatchObject({
      status: 'REFUND',
      outboundHash: '0xrefund',
      refund: { amountBase: 999_744_999_999_160_000n, hash: '0xrefund' },
    });
    expect(feeLinesOf(result).map((line) => line.basis)).toEqual([undefined, undefined, undefined]);
    expect(feeLinesOf(result).map((line) => line.label)).toEqual([
      'Deposit (ingress) fee',
      'Payout (egress) fee',
      'Refund fee',
    ]);
  });

  it('a refund still on its way says so, with what is known of it', () => {
    const result = mapSwapStatus(
      body({ state: 'SENDING', refundEgress: { amount: '990000000000000000', scheduledAt: 1 }, fees: [QUOTED[0]] }),
      QUOTED,
    );
    expect(result).toMatchObject({
      status: 'PENDING',
      substatus: 'REFUND_IN_PROGRESS',
      refund: { amountBase: 990_000_000_000_000_000n },
    });
    expect(feeLinesOf(result)).toHaveLength(1);
  });

  it('a partial fill keeps the pools’ fee of the part it swapped only', () => {
    const result = mapSwapStatus(
      body({
        state: 'COMPLETED',
        swap: { originalInputAmount: '1000', swappedInputAmount: '400', swappedOutputAmount: '1200000' },
        swapEgress: { amount: '1198500', txRef: 'btc-payout', witnessedAt: 1 },
        refundEgress: { amount: '590', txRef: '0xrest', witnessedAt: 1 },
        fees: [QUOTED[0], fee('NETWORK', 'USDC', 'Ethereum', '980000'), fee('EGRESS', 'BTC', 'Bitcoin', '1500')],
      }),
      QUOTED,
    );
    expect(result.substatus).toBe('PARTIAL');
    expect(feeLinesOf(result).filter((line) => line.label === 'Liquidity provider fee')).toEqual([
      { label: 'Liquidity provider fee', amount: '0.0002', currency: 'ETH', basis: 'quoted' },
      { label: 'Liquidity provider fee', amount: '0.49', currency: 'USDC', basis: 'quoted' },
    ]);
  });

  it('without the quote (a swap executed before it was kept), only what the provider reported', () => {
    const result = mapSwapStatus(body({ state: 'RECEIVING', fees: [QUOTED[0]] }));
    expect(feeLinesOf(result)).toEqual([
      { label: 'Deposit (ingress) fee', amount: '0.00015', currency: 'ETH', basis: undefined },
    ]);
  });
});
