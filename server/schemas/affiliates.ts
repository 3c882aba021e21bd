import { z } from 'zod';
import { rangeInput } from './ranges';

export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
export const referralCodeValue = z
  .string()
  .trim()
  .regex(REFERRAL_CODE_PATTERN, '3 to 32 characters: letters, digits, _ or -');

export const createReferralCodeInput = z.object({
  code: referralCodeValue,
  label: z.string().trim().max(64).optional(),
});
export type CreateReferralCodeInput = z.output<typeof createReferralCodeInput>;

export const affiliateStatsInput = rangeInput.extend({
  /** Admins may pick an affiliate; an affiliate may only name themselves. */
  ownerId: z.string().trim().min(1).max(64).optional(),
});
export type AffiliateStatsInput = z.output<typeof affiliateStatsInput>;
