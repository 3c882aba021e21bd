import type { ApiError } from './api';

/**
 * The API's messages are precise and written for developers (field names, checksum rules). The swap
 * page says the same things to people, by error code and field.
 */

const FIELD_NAMES: Record<string, string> = {
  srcChain: 'the chain you send from',
  srcAddress: 'the asset you send',
  dstChain: 'the chain you receive on',
  dstAddress: 'the asset you receive',
  amount: 'the amount',
  depositor: 'the wallet you send from',
  recipient: 'the wallet that receives the swap',
  slippage: 'the slippage tolerance',
};

const AMOUNT_PROBLEMS: [RegExp, string][] = [
  [/decimal places/i, 'This asset does not have that many decimal places. Shorten the amount.'],
  [/greater than zero/i, 'Enter an amount greater than zero.'],
  [/too large/i, 'This amount is larger than the asset allows. Enter a smaller amount.'],
];

/** What a person reads next to a form field the API found a problem with. */
export function friendlyFieldMessage(field: string, code: string, apiMessage: string): string {
  const name = FIELD_NAMES[field] ?? 'this field';
  if (field === 'txHash')
    return 'This is not a transaction hash this swap can use. Copy it again from your wallet or a block explorer.';
  switch (code) {
    case 'INVALID_AMOUNT':
      return (
        AMOUNT_PROBLEMS.find(([pattern]) => pattern.test(apiMessage))?.[1] ??
        'Enter the amount as a plain number, such as 1.5.'
      );
    case 'INVALID_SLIPPAGE':
      return 'Enter a slippage tolerance from 0% to 100%, such as 0.5 or 1.';
    case 'INVALID_ADDRESS':
      return `This is not a valid address on the chosen chain. Check ${name} for a typo, or paste it again.`;
    case 'UNSUPPORTED_PAIR':
      return /same asset/i.test(apiMessage)
        ? 'You chose the same asset on the same chain on both sides. Pick a different one to receive.'
        : `Swaps are not available for ${name} right now. Pick another one.`;
    default:
      return `Check ${name}.`;
  }
}

/** What a person reads when a request failed as a whole. */
export function friendlyMessage(error: ApiError): string {
  switch (error.code) {
    case 'NETWORK_ERROR':
    case 'BAD_RESPONSE':
      return error.message;
    case 'RATE_LIMITED':
      return 'Too many requests from your connection in a short time.';
    case 'QUOTE_EXPIRED':
      return 'This price lock has run out. Get new routes to lock a fresh price.';
    case 'PROVIDER_UNAVAILABLE':
      return 'This provider is not answering right now. Choose another route, or try again in a minute.';
    case 'SERVICE_UNAVAILABLE':
      return 'Switchyard is briefly unavailable. Try again in a minute.';
    case 'UNSUPPORTED_PAIR':
      return 'No provider can swap this pair for this amount right now. Try another amount or asset.';
    case 'NOT_FOUND':
      return 'We could not find that. It may have expired; start again from the form.';
    case 'INVALID_AMOUNT':
    case 'INVALID_SLIPPAGE':
    case 'INVALID_ADDRESS':
    case 'VALIDATION_ERROR':
      return 'Some of the details need another look. Check the form and try again.';
    default:
      return error.requestId
        ? `Something went wrong on our side. Try again; if it keeps happening, contact support with reference ${error.requestId}.`
        : 'Something went wrong on our side. Try again in a moment.';
  }
}
