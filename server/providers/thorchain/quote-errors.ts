import { ProviderError } from '../errors';
import type { ProviderKey } from '../types';
import { errorText } from './wire';

/**
 * THORNode's words for "nothing can be swapped here" (quote errors, either body shape). A price limit
 * the swap misses and a memo that cannot fit the source chain are answers about this route, not errors.
 */
const NO_ROUTE_PATTERNS = [
  /not enough fee/i,
  /not enough to pay transaction fee/i,
  /not enough asset to pay for fees/i,
  /pool does not exist/i,
  /unknown asset/i,
  /halted/i,
  /dust threshold/i,
  /outbound amount does not meet requirements/i,
  /less than price limit/i,
  /memo too long/i,
  // thornode x/thorchain: swap_current.go (pool unavailable or missing, zero emit), querier_quotes.go
  // (the emit-below-outbound-fee invariant), handler_swap.go (streaming paused).
  /pool\s*\(?\S+?\)? is not available/i,
  /pool \S+ doesn't exist/i,
  /emit \S+ less than outbound fee/i,
  /zero emit asset/i,
  /streaming swaps are paused/i,
];

/** THORNode's words for a request we got wrong (querier_quotes.go): ours to fix, not the node's health. */
const BAD_REQUEST_PATTERNS = [
  /bad (destination|refund) address/i,
  /must only include one of/i,
  /tolerance basis points must be less than/i,
  /bad (amount|from asset|to asset|affiliate|streaming)/i,
  /missing \S+ parameter|missing required parameter/i,
];

export const isNoRouteText = (text: string) => NO_ROUTE_PATTERNS.some((pattern) => pattern.test(text));
const isBadRequestText = (text: string) => BAD_REQUEST_PATTERNS.some((pattern) => pattern.test(text));

/** THORNode v3 answers query errors through its gRPC gateway: HTTP 400 or 500 `{"code": …, "message": …}`. */
const isGatewayError = (body: unknown) =>
  typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number';

/**
 * An answer about the request (no route, or a request we built wrong) is not an outage and never
 * trips the breaker; a 5xx without the gateway's error body is the node failing.
 */
export function classifyQuoteError(key: ProviderKey, status: number, body: unknown): ProviderError | undefined {
  if (status === 429 || (status >= 500 && !isGatewayError(body))) return undefined;
  const text = errorText(body);
  if (isNoRouteText(text)) return new ProviderError(key, 'NO_ROUTE', text, status);
  if (isBadRequestText(text)) return new ProviderError(key, 'REJECTED', text, status);
  return undefined;
}
