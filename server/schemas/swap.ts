import { z } from 'zod';
import type { ErrorCode } from '../errors';

const required = (field: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : `${field} must be a string`),
});

export const MAX_EXCLUDE = 20;

const providerKey = z.string().max(64);
const chainKey = (field: string) => z.string(required(field)).trim().min(1, 'must not be empty').max(64);
const assetAddress = (field: string) => z.string(required(field)).trim().min(1, 'must not be empty').max(128);
const wallet = z.string('must be a string').max(128, 'too long');
export const referralCodeSchema = z
  .string('must be a string')
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_" only');

export const referralQuery = z.object({ code: referralCodeSchema.describe('The referral code, e.g. from `/?ref=`') });

const pairFields = {
  srcChain: chainKey('srcChain').describe('Source chain key'),
  srcAddress: assetAddress('srcAddress').describe('Source asset address, as the assets list gives it'),
  dstChain: chainKey('dstChain').describe('Destination chain key'),
  dstAddress: assetAddress('dstAddress').describe('Destination asset address, as the assets list gives it'),
  amount: z.string(required('amount')).max(100, 'too long').describe('Positive human-readable amount, e.g. "1.5"'),
  depositor: wallet.optional().describe('Source wallet; recommended'),
  recipient: wallet.optional().describe('Destination wallet; recommended'),
  exclude: z
    .array(providerKey, 'must be an array of provider keys')
    .max(MAX_EXCLUDE, `at most ${MAX_EXCLUDE} providers`)
    .optional()
    .describe('Provider keys to leave out'),
};

/** Both interfaces: the spec documents no bound for legacy, but past 100% the minimum received goes negative. */
const slippage = z
  .number('must be a number of basis points')
  .int('must be a whole number of basis points')
  .min(0, 'must be at least 0')
  .max(10_000, 'must be at most 10000 (100%)')
  .describe('Basis points, 0 through 10000; 100 means 1%');

export const quoteBodyV1 = z.object({
  ...pairFields,
  slippage: slippage.optional(),
});
export const quoteBodyLegacy = z.object({
  ...pairFields,
  slippage: slippage.optional(),
});

const lockFields = {
  provider: z
    .string('must be a provider key')
    .trim()
    .min(1, 'must not be empty')
    .max(64)
    .describe('Provider key of the selected route'),
  depositor: z.string(required('depositor')).max(128, 'too long').describe('Source wallet'),
  recipient: z.string(required('recipient')).max(128, 'too long').describe('Destination wallet'),
  referralCode: referralCodeSchema.optional().describe('Affiliate referral code'),
};

export const lockBodyV1 = quoteBodyV1.extend({
  ...lockFields,
  routeId: z
    .string('must be a string')
    .max(128)
    .optional()
    .describe('Route ID of the selected route; recommended when the provider offered several'),
});
export const lockBodyLegacy = quoteBodyLegacy.extend(lockFields);

const executeReferral = referralCodeSchema.optional().describe('When omitted, the code given at lock is used');

/** The id lock returned; missing or blank reads as such, since MISSING_LOCK_ID carries this message. */
const lockIdField = (field: 'lockId' | 'quoteId') => {
  const missing = `${field} is missing: pass the ${field} that lock returned`;
  return z
    .string({ error: (iss) => (iss.input === undefined ? missing : `${field} must be a string`) })
    .trim()
    .min(1, missing)
    .max(64, 'too long');
};

export const executeBodyV1 = z.object({
  lockId: lockIdField('lockId').describe('The `lockId` from lock'),
  referralCode: executeReferral,
});

export const executeBodyLegacy = z.object({
  quoteId: lockIdField('quoteId').describe('The locked `quoteId` from lock'),
  referralCode: executeReferral,
});

export type QuoteBody = z.output<typeof quoteBodyV1>;
export type LockBody = z.output<typeof lockBodyV1>;
export type ExecuteBody = z.output<typeof executeBodyV1>;

const isBlank = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '');

/**
 * The error code for a field that failed its schema: a missing provider is MISSING_PROVIDER,
 * a present-but-wrong amount INVALID_AMOUNT, and so on; anything else VALIDATION_ERROR.
 */
export function swapFieldCode(field: string, value: unknown): ErrorCode {
  switch (field) {
    case 'amount':
      return value === undefined ? 'VALIDATION_ERROR' : 'INVALID_AMOUNT';
    case 'slippage':
      return 'INVALID_SLIPPAGE';
    case 'depositor':
    case 'recipient':
      return value === undefined ? 'VALIDATION_ERROR' : 'INVALID_ADDRESS';
    case 'provider':
      return isBlank(value) ? 'MISSING_PROVIDER' : 'VALIDATION_ERROR';
    case 'lockId':
    case 'quoteId':
      return isBlank(value) ? 'MISSING_LOCK_ID' : 'VALIDATION_ERROR';
    default:
      return 'VALIDATION_ERROR';
  }
}
