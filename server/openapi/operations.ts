import type { ErrorCode } from '../errors';

const WALLET = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
export const QUOTE_EXAMPLE = {
  srcChain: 'ethereum',
  srcAddress: '0x0000000000000000000000000000000000000000',
  dstChain: 'bitcoin',
  dstAddress: 'native',
  amount: '0.5',
  slippage: 100,
  depositor: WALLET,
  recipient: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
};

export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  /** Domain codes beyond the ones every endpoint can answer (validation, rate limit, outages). */
  raises?: ErrorCode[];
  example?: unknown;
  /** Per-endpoint wording of a query parameter. */
  params?: Record<string, string>;
  /** Answers carry `ETag` and `Cache-Control`, and `If-None-Match` may get 304. */
  conditional?: boolean;
}

const SWAP_INPUT: ErrorCode[] = ['INVALID_AMOUNT', 'INVALID_SLIPPAGE', 'INVALID_ADDRESS', 'UNSUPPORTED_PAIR'];
const LOCK: ErrorCode[] = [...SWAP_INPUT, 'MISSING_PROVIDER', 'PROVIDER_UNAVAILABLE', 'BAD_GATEWAY'];
const EXECUTE: ErrorCode[] = ['MISSING_LOCK_ID', 'NOT_FOUND', 'QUOTE_EXPIRED', 'PROVIDER_UNAVAILABLE', 'BAD_GATEWAY'];

/** The one-transaction lookup shared by status, events and stream. */
export const TRANSACTION_LOOKUP_PARAMS = {
  transactionId: 'Public transaction ID. Required when `hash` is omitted.',
  hash: 'Matched against hash, inboundHash and outboundHash. Required when `transactionId` is omitted.',
};

export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /api/v1/swap/chains': {
    operationId: 'listChains',
    summary: 'List chains',
    description: 'Active chains. `key` is what `srcChain`, `dstChain` and the `chain` filter take.',
    params: { query: 'Search across name, shortname and key.' },
  },
  'GET /api/v1/swap/assets': {
    operationId: 'listAssets',
    summary: 'List assets',
    description: 'Assets of active chains. `address` is what `srcAddress` and `dstAddress` take.',
    params: { query: 'Search across name, symbol and address.' },
  },
  'GET /api/v1/swap/sources': {
    operationId: 'listSources',
    summary: 'List routing providers',
    description: 'Active providers. `key` is what `provider` and `exclude` take.',
  },
  'POST /api/v1/quote': {
    operationId: 'quote',
    summary: 'Quote routes',
    description:
      'Routes for the pair and amount, best first. No route is not an error: the answer is 200 with `data: []`. ' +
      'Keep the `provider` and `routeId` of the chosen route for lock. Routes never carry `exec`.',
    raises: SWAP_INPUT,
    example: QUOTE_EXAMPLE,
  },
  'POST /api/v1/quote/lock': {
    operationId: 'lockQuote',
    summary: 'Lock a route',
    description:
      'Re-quotes the chosen provider and locks one route for a short time (`expiresAt`, `ttlMs`). ' +
      'Amounts and fees may be refreshed relative to the quote. No execution payload is returned.',
    raises: LOCK,
    example: { ...QUOTE_EXAMPLE, provider: 'CHAINFLIP', referralCode: 'EXAMPLE-CODE' },
  },
  'POST /api/v1/quote/execute': {
    operationId: 'executeQuote',
    summary: 'Execute a locked quote',
    description:
      'Executes the lock once: records a transaction (`data.transaction.id`) and may return `exec` for a wallet ' +
      'action or deposit. An expired or already-used lock answers 409 `QUOTE_EXPIRED`.',
    raises: EXECUTE,
    example: { lockId: 'lk_3bVq8RkX2mPz9LwT4nHc1a' },
  },
  'GET /api/v1/transaction/status': {
    operationId: 'transactionStatus',
    summary: 'Transaction status',
    description:
      'One transaction by `transactionId` or by any of its hashes; one of the two is required. ' +
      'Poll until `final` is true. Answers carry an `ETag`: poll with `If-None-Match` and an unchanged ' +
      'transaction answers 304 with no body. A pending (or recently failed) transaction is `Cache-Control: ' +
      'no-cache` (revalidate every time); a settled one looked up by `transactionId` never changes and is ' +
      '`public, max-age=31536000, immutable`, so a shared cache or CDN may keep it; by `hash` it is ' +
      '`public, max-age=300`, since a hash may still be vouched for on another swap.',
    raises: ['NOT_FOUND'],
    conditional: true,
    params: TRANSACTION_LOOKUP_PARAMS,
  },
  'GET /api/v1/transaction/events': {
    operationId: 'transactionEvents',
    summary: 'Transaction timeline',
    description:
      'The steps recorded for one transaction, oldest first: who recorded each (`execute`, `poll`, `track`, ' +
      '`sweep` or `support`) and the status, substatus and hashes it left. Same lookup as status.',
    raises: ['NOT_FOUND'],
    params: TRANSACTION_LOOKUP_PARAMS,
  },
  'GET /api/v1/transaction/execution': {
    operationId: 'transactionExecution',
    summary: 'What the swapper still has to do',
    description:
      'The execute answer again (deposit address, memo, amount and expiry, or the wallet call), with ' +
      '`outstanding` true while the swap is pending and no source transaction is known. Report the hash ' +
      'with track once sent. Same lookup as status.',
    raises: ['NOT_FOUND'],
    params: TRANSACTION_LOOKUP_PARAMS,
  },
  'GET /api/v1/transaction/stream': {
    operationId: 'transactionStream',
    summary: 'Transaction status stream',
    description:
      'Server-Sent Events instead of polling status: the current state at once, then one `status` event per ' +
      'change, each carrying what status returns in `data`; the stream ends after the event with a final status. ' +
      'Reconnect with the `Last-Event-ID` header to resume (the state you already hold is not sent again); a ' +
      "stream also ends at the server's maximum lifetime, to be resumed the same way. A `: heartbeat` comment " +
      'comes every 15 s. Errors before the stream starts use the error envelope; too many open streams from one ' +
      'client answer 429 `RATE_LIMITED`.',
    raises: ['NOT_FOUND'],
    params: TRANSACTION_LOOKUP_PARAMS,
  },
  'POST /api/v1/transaction/track': {
    operationId: 'trackTransaction',
    summary: 'Track a transaction',
    description:
      'Starts or refreshes provider tracking after a wallet transaction or manual deposit. Send only ' +
      '`transactionId` and, when known, `txHash`; provider metadata is never read from the client. Then poll status. ' +
      'A swap whose deposit window closed with no deposit seen is final (`FAILED`, substatus `EXPIRED`): a hash ' +
      'reported for it then answers 409 `SWAP_EXPIRED`, and the hash is kept on its timeline for support.',
    raises: ['NOT_FOUND', 'SWAP_EXPIRED'],
    example: { transactionId: 'tx_7kQm2VbX9pLr4TzN8wYc3d', txHash: `0x${'ab'.repeat(32)}` },
  },
  'GET /api/v1/transaction/history': {
    operationId: 'transactionHistory',
    summary: 'Transaction history',
    description:
      'Transactions, newest first, filtered by wallets, statuses, referral code or search term. A server may ' +
      'require a scope (`HISTORY_REQUIRE_SCOPE`): then a request without `addresses` or `transactionId` is 400 ' +
      '`VALIDATION_ERROR` naming both fields. Pages by `page`, or by `cursor` (keyset): pass ' +
      '`pagination.nextCursor` back as `cursor` to get the rows after that page, unaffected by swaps recorded ' +
      'meanwhile and as fast for the thousandth page as for the first.',
    params: {
      query: 'Search by transaction ID, lock ID, hash, wallet, provider, asset symbol or referral code.',
      cursor:
        'Opaque: a `pagination.nextCursor` from an earlier answer with the same filters. The rows after it; `page` is then ignored.',
    },
  },
  'GET /api/v1/referral': {
    operationId: 'referralStatus',
    summary: 'Check a referral code',
    description:
      'Whether lock and execute would attribute a swap to this code now (registered by an affiliate and active). ' +
      'An unknown code is not an error: `active` is false, and a lock or execute carrying it attributes nothing.',
  },
  'GET /api/v1/openapi.json': {
    operationId: 'openApiDocument',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 description of both interfaces, generated from the same schemas the handlers use.',
  },
  'GET /api/swap/chains': {
    operationId: 'legacyListChains',
    summary: 'List chains (unversioned)',
    description: 'As `GET /api/v1/swap/chains`, answered as `{chains, page, perPage, total}`.',
    params: { query: 'Search across name, shortname and key.' },
  },
  'GET /api/swap/assets': {
    operationId: 'legacyListAssets',
    summary: 'List assets (unversioned)',
    description: 'As `GET /api/v1/swap/assets`, answered as `{assets, page, perPage, total}`.',
    params: { query: 'Search across name, symbol and address.' },
  },
  'GET /api/swap/sources': {
    operationId: 'legacyListSources',
    summary: 'List routing providers (unversioned)',
    description: 'As `GET /api/v1/swap/sources`, answered as `{sources, page, perPage, total}`.',
  },
  'POST /api/quote': {
    operationId: 'legacyQuote',
    summary: 'Quote routes (unversioned)',
    description: 'A bare array of `{provider, quoteId, quote, fee, exec}`; empty when no route is available.',
    raises: SWAP_INPUT,
    example: QUOTE_EXAMPLE,
  },
  'POST /api/quote/lock': {
    operationId: 'legacyLockQuote',
    summary: 'Lock a route (unversioned)',
    description: 'Locks the provider’s best route; the answer’s `quoteId` is the locked ID for execute. No `routeId`.',
    raises: LOCK,
    example: { ...QUOTE_EXAMPLE, provider: 'CHAINFLIP' },
  },
  'POST /api/quote/execute': {
    operationId: 'legacyExecuteQuote',
    summary: 'Execute a locked quote (unversioned)',
    description: 'Executes the lock named by `quoteId`; the record is wrapped as `transaction.transaction`.',
    raises: EXECUTE,
    example: { quoteId: 'lk_3bVq8RkX2mPz9LwT4nHc1a' },
  },
  'GET /api/transaction/history': {
    operationId: 'legacyTransactionHistory',
    summary: 'Transaction history (unversioned)',
    description:
      'As the v1 history with `search` instead of `query`, answered as `{items, page, perPage, total}`. Where the ' +
      'server requires a scope, `addresses` is required.',
    params: { search: 'Search by transaction ID, lock ID, hash, wallet, provider, asset symbol or referral code.' },
  },
};

export const PARAM_DOCS: Record<string, string> = {
  page: 'Page number, from 1.',
  perPage: 'Items per page.',
  type: 'Only this type.',
  chain: 'Only assets of this chain key.',
  addresses: 'Wallets (source or destination); repeat the parameter or separate with commas.',
  statuses: 'Only these statuses; repeat the parameter or separate with commas.',
  finalizedOnly: 'When true (or 1), only SUCCESS, FAILED and REFUND.',
  referralCode: 'Only transactions attributed to this referral code.',
  transactionId: 'Public transaction ID.',
  hash: 'Matched against hash, inboundHash and outboundHash.',
};
