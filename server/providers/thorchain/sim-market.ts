import { getAddress } from 'viem';
import { rescale } from '../../catalog/amounts';
import { convertAtMarket, fakeHex, findSimAsset, type SimAsset, sameAddress, usdOf } from '../simulator-kit';

/** Pools (by `CHAIN.SYMBOL`) the fake network has; RUNE is the settlement asset. */
const POOLS = new Set([
  'BTC.BTC',
  'ETH.ETH',
  'LTC.LTC',
  'DOGE.DOGE',
  'BCH.BCH',
  'GAIA.ATOM',
  'AVAX.AVAX',
  'BSC.BNB',
  'BASE.ETH',
  'ETH.USDC',
  'ETH.USDT',
  'ETH.WBTC',
  'AVAX.USDC',
  'BSC.USDT',
  'BASE.USDC',
  'THOR.RUNE',
]);

export const EVM_VAULT = getAddress(`0x${fakeHex('thorchain-sim:evm-vault', 20)}`);
const routerFor = (chain: string) => getAddress(`0x${fakeHex(`thorchain-sim:router:${chain}`, 20)}`);

const UTXO_NOTES =
  'First output should be to inbound_address, second output should be change back to self, third output should be OP_RETURN, limited to 80 bytes. Do not send below the dust threshold. Do not use exotic spend scripts, locks or address formats.';
const EVM_NOTES =
  'Base Asset: Send the inbound_address the asset with the memo encoded in hex in the data field. Tokens: First approve router to spend tokens from user: asset.approve(router, amount). Then call router.depositWithExpiry(inbound_address, asset, amount, memo, expiry). Asset is the token contract address. Amount should be in native asset decimals (eg 1e18 for most tokens). Do not swap to smart contract addresses.';
const COSMOS_NOTES =
  'Transfer the inbound_address the asset with the memo. Do not use multi-in, multi-out transactions.';
const THOR_NOTES =
  'Broadcast a MsgDeposit to the THORChain network with the appropriate memo. Do not use multi-in, multi-out transactions.';
export const WARNING = 'Do not cache this response. Do not send funds after the expiry.';

export interface SimChain {
  blockSeconds: number;
  confirmations: number;
  /** In 1e8 of the chain's gas asset (common/chain.go `DustThreshold`). */
  dust: bigint;
  outboundFeeCents: bigint;
  gasAsset: string;
  vault?: string;
  router?: string;
  gasRate: string;
  gasRateUnits: string;
  notes: string;
  defaultAddress: string;
  /** What THORNode's address parser accepts for this chain (roughly). */
  address: RegExp;
  /** OP_RETURN carries at most 80 bytes: a longer generated memo is refused. */
  maxMemoLength?: number;
}

const evmChain = (chain: string, blockSeconds: number, gasAsset: string, feeCents: bigint): SimChain => ({
  blockSeconds,
  confirmations: chain === 'ETH' ? 2 : 1,
  dust: 1n,
  outboundFeeCents: feeCents,
  gasAsset,
  vault: EVM_VAULT,
  router: routerFor(chain),
  gasRate: '3',
  gasRateUnits: 'gwei',
  notes: EVM_NOTES,
  defaultAddress: '0x86d526d6624AbC0178cF7296cD538Ecc080A95F1',
  address: /^0x[0-9a-fA-F]{40}$/,
});

const UTXO_MEMO_BYTES = 80;

export const CHAINS: Record<string, SimChain> = {
  BTC: {
    blockSeconds: 600,
    confirmations: 1,
    dust: 10_000n,
    outboundFeeCents: 300n,
    gasAsset: 'BTC.BTC',
    vault: 'bc1qt9723ak9t7lu7a97lt9kelq4gnrlmyvk4yhzwr',
    gasRate: '8',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    address: /^(bc1[02-9ac-hj-np-z]{8,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
    maxMemoLength: UTXO_MEMO_BYTES,
  },
  LTC: {
    blockSeconds: 150,
    confirmations: 1,
    dust: 10000n,
    outboundFeeCents: 5n,
    gasAsset: 'LTC.LTC',
    vault: 'ltc1q2ck4cfjyx3ng9d5smfd3qrytf2kf2fe2wlrsqr',
    gasRate: '10',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'ltc1qg82sxhlj4gzdm5qkj8v2gxnlfsykn8x9m3rvtq',
    address: /^(ltc1[02-9ac-hj-np-z]{8,87}|[LM3][1-9A-HJ-NP-Za-km-z]{26,33})$/,
    maxMemoLength: UTXO_MEMO_BYTES,
  },
  DOGE: {
    blockSeconds: 60,
    confirmations: 1,
    dust: 100000000n,
    outboundFeeCents: 50n,
    gasAsset: 'DOGE.DOGE',
    vault: 'DE8xsUYCLtRpZzEmDt2WVKHHBpDpgbQbM6',
    gasRate: '500000',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L',
    address: /^[DA9][1-9A-HJ-NP-Za-km-z]{25,34}$/,
    maxMemoLength: UTXO_MEMO_BYTES,
  },
  BCH: {
    blockSeconds: 600,
    confirmations: 1,
    dust: 10000n,
    outboundFeeCents: 5n,
    gasAsset: 'BCH.BCH',
    vault: 'qzdnaqcwd6r0ghnzqk3d3l3l2h4g4ps4cydmn6jkf0',
    gasRate: '3',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
    address: /^(bitcoincash:)?[qp][02-9ac-hj-np-z]{41}$|^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/,
    maxMemoLength: UTXO_MEMO_BYTES,
  },
  GAIA: {
    blockSeconds: 6,
    confirmations: 1,
    dust: 1n,
    outboundFeeCents: 5n,
    gasAsset: 'GAIA.ATOM',
    vault: 'cosmos1rdly788mpmwvemd5yr8wu0499zs4v4qnaptum4',
    gasRate: '750000',
    gasRateUnits: 'uatom',
    notes: COSMOS_NOTES,
    defaultAddress: 'cosmos1syavy2npfyt9tcncdtsdzf7kny9lh777pahuux',
    address: /^cosmos1[02-9ac-hj-np-z]{38,58}$/,
  },
  ETH: evmChain('ETH', 12, 'ETH.ETH', 200n),
  AVAX: evmChain('AVAX', 2, 'AVAX.AVAX', 10n),
  BSC: evmChain('BSC', 3, 'BSC.BNB', 5n),
  BASE: evmChain('BASE', 2, 'BASE.ETH', 5n),
  THOR: {
    blockSeconds: 6,
    confirmations: 0,
    dust: 0n,
    outboundFeeCents: 2n,
    gasAsset: 'THOR.RUNE',
    gasRate: '2000000',
    gasRateUnits: 'tor',
    notes: THOR_NOTES,
    defaultAddress: 'thor1dheycdevq39qlkxs2a6wuuzyn4aqxhve4qxtxt',
    address: /^thor1[02-9ac-hj-np-z]{38,58}$/,
  },
};

export const THOR_BLOCK_SECONDS = 6;
export const QUOTE_TTL_SECONDS = 15 * 60;
const POOL_DEPTH_CENTS = 2_000_000_000n;
const BASE_LIQUIDITY_FEE_BPS = 5n;
const STREAMING_CHUNK_CENTS = 50_000n;
const MAX_STREAMING_QUANTITY = 100n;

// ---- Assets and pools.

export interface PoolAsset {
  asset: SimAsset;
  chain: string;
  notation: string;
}

export function resolveAsset(notation: string | null): PoolAsset | undefined {
  if (!notation) return undefined;
  const upper = notation.toUpperCase();
  const [chain = '', rest = ''] = upper.split(/\.(.*)/s);
  const [symbol = '', address] = rest.split('-');
  if (!POOLS.has(`${chain}.${symbol}`) || !CHAINS[chain]) return undefined;
  const asset = findSimAsset(
    (a) =>
      a.chainSeed.thorchainChain === chain &&
      a.symbol.toUpperCase() === symbol &&
      (address ? !a.isNative && sameAddress(a.address, address) : a.isNative),
  );
  if (!asset) return undefined;
  const canonical = asset.isNative ? `${chain}.${symbol}` : `${chain}.${symbol}-${asset.address.toUpperCase()}`;
  return { asset, chain, notation: canonical };
}

const centsOf = (amountBase: bigint, asset: SimAsset) => BigInt(usdOf(amountBase, asset).replace('.', ''));

/** A USD amount (in cents) expressed in 1e8 units of an asset, at seed prices. */
export function centsToE8(cents: bigint, asset: SimAsset): bigint {
  const dollar = { ...asset, priceUsd: '1', decimals: 2 };
  return rescale(convertAtMarket(cents, dollar, asset, 0), asset.decimals, 8);
}

export const clamp = (value: bigint, min: bigint, max: bigint) => (value < min ? min : value > max ? max : value);

export interface SwapSimulation {
  /** The output at pool price before any fee, as `tolerance_bps` is measured against. */
  feelessOut: bigint;
  expectedOut: bigint;
  liquidityFee: bigint;
  outboundFee: bigint;
  liquidityBps: bigint;
  minAmountIn: bigint;
  maxStreamingQuantity: bigint;
  streamingQuantity: bigint;
  usdCents: bigint;
}

export function simulateSwap(
  from: PoolAsset,
  to: PoolAsset,
  amountE8: bigint,
  interval: bigint,
  quantity: bigint,
): SwapSimulation {
  const fromBase = rescale(amountE8, 8, from.asset.decimals);
  const gross = rescale(convertAtMarket(fromBase, from.asset, to.asset, 0), to.asset.decimals, 8);
  const usdCents = centsOf(fromBase, from.asset);
  const maxStreamingQuantity = clamp(usdCents / STREAMING_CHUNK_CENTS, 1n, MAX_STREAMING_QUANTITY);
  const streamingQuantity =
    interval > 0n ? (quantity === 0n || quantity > maxStreamingQuantity ? maxStreamingQuantity : quantity) : 0n;
  const slipDivisor = POOL_DEPTH_CENTS * (streamingQuantity > 0n ? streamingQuantity : 1n);
  const liquidityFee = (gross * usdCents) / slipDivisor + (gross * BASE_LIQUIDITY_FEE_BPS) / 10_000n;
  const srcFeeCents = CHAINS[from.chain]?.outboundFeeCents ?? 0n;
  const dstFeeCents = CHAINS[to.chain]?.outboundFeeCents ?? 0n;
  const outboundFee = centsToE8(dstFeeCents, to.asset);
  // thornode: recommended_min_amount_in = MAX(outbound_fee(src), outbound_fee(dst)) * 4.
  const maxFeeCents = srcFeeCents > dstFeeCents ? srcFeeCents : dstFeeCents;
  const emit = gross - liquidityFee;
  return {
    feelessOut: gross,
    expectedOut: emit > outboundFee ? emit - outboundFee : 0n,
    liquidityFee,
    outboundFee,
    liquidityBps: gross > 0n ? (liquidityFee * 10_000n) / gross : 0n,
    minAmountIn: centsToE8(maxFeeCents * 4n, from.asset),
    maxStreamingQuantity,
    streamingQuantity,
    usdCents,
  };
}

/** THORNode's one-letter asset codes, which generated memos use (common/asset.go `ShortCode`). */
const SHORT_CODES: Record<string, string> = {
  'THOR.RUNE': 'r',
  'BTC.BTC': 'b',
  'ETH.ETH': 'e',
  'GAIA.ATOM': 'g',
  'DOGE.DOGE': 'd',
  'LTC.LTC': 'l',
  'BCH.BCH': 'c',
  'AVAX.AVAX': 'a',
  'BSC.BNB': 's',
  'BASE.ETH': 'f',
};

/** `memo.ShortString()`: the limit field is left out when zero and the swap is not streaming. */
export function swapMemo(to: PoolAsset, destination: string, refund: string | null, limit: bigint, streaming: string) {
  const parties = refund ? `${destination}/${refund}` : destination;
  const fields = ['=', SHORT_CODES[to.notation] ?? to.notation, parties];
  if (limit > 0n || streaming) fields.push(`${limit}${streaming}`);
  return fields.join(':');
}
