import type { ProviderKey } from '../config';
import type { TxStatus } from '../transactions/statuses';

export type { ProviderKey, TxStatus };
export type ChainType = 'EVM' | 'UTXO' | 'COSMOS' | 'OTHER';

/** A catalog asset with everything an adapter needs to name it upstream. */
export interface RouteAsset {
  id: number;
  chain: string;
  chainType: ChainType;
  chainId: number;
  symbol: string;
  name: string;
  /** Canonical address: EIP-55 for EVM, `native` for non-EVM natives, mint/jetton otherwise. */
  address: string;
  decimals: number;
  isNative: boolean;
  image: string;
  priceUsd: string | null;
  providerIds: { thorchain?: string; chainflip?: string; relay?: number; lifi?: number };
}

export interface QuoteInput {
  src: RouteAsset;
  dst: RouteAsset;
  /** Source amount in the source asset's base units. */
  amountBase: bigint;
  slippageBps: number;
  depositor?: string;
  recipient?: string;
}

export interface FeeItem {
  label: string;
  type: 'network' | 'gas' | 'bridge' | 'relayer' | 'provider' | 'liquidity' | 'affiliate' | 'other';
  amount: string;
  amountUsd: number | null;
  currency: string;
  /**
   * A recorded line the provider did not state, its quoted amount kept so the total stays comparable:
   * `quoted` when its status never states it (it stands as paid), `pending` when not charged yet.
   */
  basis?: 'quoted' | 'pending';
}

export interface DisplayFee {
  usd: string | null;
  formatted: string | null;
  currency: string | null;
  details: FeeItem[];
}

export interface RouteStep {
  type: 'swap' | 'bridge' | 'deposit' | 'approve' | 'send';
  name: string;
  image: string;
}

/** One route as an adapter reports it; `providerQuote` stays on the server. */
export interface ProviderRoute {
  /** Stable for the same provider, pair and path: a re-quote finds the same id. */
  routeId: string;
  dstAmountBase: bigint;
  /** Minimum received after slippage, when the provider reports it. */
  dstMinAmountBase?: bigint;
  estimatedTimeSeconds: number;
  fee: DisplayFee;
  /** USD values when the provider reports them; otherwise priced from the catalog. */
  srcUsd?: string;
  dstUsd?: string;
  steps: RouteStep[];
  /** When the provider's quote stops being honoured. */
  expiresAt?: Date;
  providerQuote: Record<string, unknown>;
}

export interface ExecuteInput extends QuoteInput {
  depositor: string;
  recipient: string;
  routeId: string;
  /** What the adapter stored at lock. */
  providerQuote: Record<string, unknown>;
  /** Our public transaction id, for upstream references where a provider accepts one. */
  transactionId: string;
}

/** What the client's wallet must do to execute: a transaction to sign or a deposit to send. */
export interface ExecPayload {
  chainId: number | null;
  providerTarget: string;
  providerCalldata?: string;
  value?: string;
  srcToken: string;
  srcAmount: string;
  approvalTarget?: string;
  approvalToken?: string;
  approvalAmount?: string;
  allSteps?: Record<string, unknown>[];
  meta: {
    providerQuoteId?: string;
    selectedQuoteId?: string;
    executionMode: 'evm-calldata' | 'deposit-address' | 'deposit-channel' | 'ton-messages' | 'solana-instructions';
    walletExecution: boolean;
    depositAddress?: string;
    depositMemo?: string;
    channelId?: string;
    expiresAt?: string;
  };
}

export interface ProviderResult {
  txHash?: string;
  status: 'AWAITING_WALLET' | 'AWAITING_DEPOSIT' | 'SUBMITTED';
  requestId?: string;
  channelId?: string;
  depositAddress?: string;
  depositMemo?: string;
  execution: ExecPayload['meta']['executionMode'];
}

export interface ExecutionResult {
  providerResult: ProviderResult;
  exec?: ExecPayload;
  /** Everything status polling needs later; stored server-side, never returned. */
  trackingContext: Record<string, unknown>;
  /** Final amounts when the provider refreshed them at execute. */
  dstAmountBase?: bigint;
  /** The minimum the handed-out payload (memo, calldata) enforces on chain, when it enforces one. */
  dstMinAmountBase?: bigint;
  fee?: DisplayFee;
  /**
   * The last moment the provider takes the deposit for this swap (THORChain's quote `expiry`, a Chainflip
   * channel's expiry, the quote deadline Relay or LI.FI give). Absent: the configured deposit window applies.
   */
  depositDeadline?: Date;
}

export interface StatusInput {
  trackingContext: Record<string, unknown>;
  /** The source hash the client reported (or the provider's, once known); '' until then. */
  hash: string;
  inboundHash: string;
  src: RouteAsset;
  dst: RouteAsset;
  createdAt: Date;
  /** What the swap was locked with: the upstream transaction behind a client hash must match it. */
  depositor: string;
  recipient: string;
  /** Source amount in the source asset's base units. */
  srcAmountBase: bigint;
}

/**
 * One vocabulary for where a swap stands, whatever the provider calls it. PARTIAL: part was swapped
 * and delivered, the rest refunded. FAILED: failed and no refund reported (yet). HASH_REJECTED: the
 * hash the swapper reported is not this swap's deposit, by the provider's record; the right one is awaited.
 */
export const SUBSTATUSES = [
  'WAITING_SOURCE_CONFIRMATIONS',
  'SWAPPING',
  'WAITING_DESTINATION',
  'REFUND_IN_PROGRESS',
  'DELAYED',
  'COMPLETED',
  'PARTIAL',
  'REFUNDED',
  'EXPIRED',
  'FAILED',
  'NOT_FOUND_UPSTREAM',
  'HASH_REJECTED',
] as const;
export type Substatus = (typeof SUBSTATUSES)[number];

/**
 * What the provider's record says about the hash the client reported. `decidesStatus` is true when
 * the status itself was looked up by that hash: such a status only counts once the hash is verified.
 */
export interface HashCheck {
  hash: string;
  verdict: 'verified' | 'rejected' | 'unknown';
  /** Why a hash was rejected (for the timeline and logs). */
  reason?: string;
  decidesStatus: boolean;
}

export interface StatusResult {
  status: TxStatus;
  /** Human-readable summary of the upstream state, for the timeline. */
  detail: string;
  upstreamState: string;
  inboundHash?: string;
  outboundHash?: string;
  /** The catalog chain the outbound transaction landed on, when the provider names it (a refund may land on either side). */
  outboundChain?: string;
  dstAmountBase?: bigint;
  fee?: { amount: string; currency: string; amountUsd: number | null; details?: unknown };
  /** The upstream does not know the transaction yet (indexing lag or no deposit). */
  notFound?: boolean;
  substatus?: Substatus;
  /** A partial fill: what was swapped and delivered, and what went back to the sender. */
  /** `refundHash`: the refund's own transaction, beside the payout's `outboundHash`, when the provider names it. */
  partial?: { delivered: string; refunded: string; refundHash?: string };
  hashCheck?: HashCheck;
  /** The whole deposit going back to the sender: the amount in source base units and its transaction, once known. */
  refund?: { amountBase?: bigint; hash?: string };
  /** Why the provider refunds or failed the swap, in its words, for the swapper (a rejected deposit's reason). */
  reason?: string;
  /**
   * This upstream state is judged by how long it has held (Relay's `failure`): tracking records when it first
   * saw it, in the row's tracking context under FIRST_SEEN_KEY, which later status reads get back.
   */
  timed?: boolean;
}

/** The tracking context's record of when tracking first saw each timed upstream state (ISO times by state). */
export const FIRST_SEEN_KEY = 'firstSeenAt';

/** The tracking context's copy of the provider's last `reason` (see StatusResult), which the status answer shows. */
export const REASON_KEY = 'reason';

export function reasonOf(trackingContext: Record<string, unknown>): string | null {
  const reason = trackingContext[REASON_KEY];
  return typeof reason === 'string' && reason ? reason : null;
}

/** When tracking first saw `state`, in ms, from a tracking context; undefined when it never has. */
export function firstSeenAt(trackingContext: Record<string, unknown>, state: string): number | undefined {
  const seen = trackingContext[FIRST_SEEN_KEY];
  const at = seen && typeof seen === 'object' ? (seen as Record<string, unknown>)[state] : undefined;
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

export interface StatusContextReady {
  /** True when the stored context (or a hash) is enough to ask the provider. */
  ready: boolean;
}

export interface ProviderAdapter {
  readonly key: ProviderKey;
  /** How often its status may be asked for one transaction (the provider's documented cadence). */
  readonly pollIntervalMs: number;
  supports(src: RouteAsset, dst: RouteAsset): boolean;
  /** Routes for the pair, best first; [] when the provider has no route. */
  quote(input: QuoteInput, signal: AbortSignal): Promise<ProviderRoute[]>;
  /** The side-effecting call at execute: calldata, deposit address or channel. */
  execute(input: ExecuteInput, signal: AbortSignal): Promise<ExecutionResult>;
  canTrack(trackingContext: Record<string, unknown>, hash: string): boolean;
  status(input: StatusInput, signal: AbortSignal): Promise<StatusResult>;
  /**
   * Looks for a deposit-address swap's deposit by what is known of it (depositor, memo, vault) where the
   * provider's API lists deposits that way: the hashes of candidates, which status must still verify.
   */
  findDeposits?(input: StatusInput, signal: AbortSignal): Promise<string[]>;
}
