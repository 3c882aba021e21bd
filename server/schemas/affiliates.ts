import { z } from 'zod';
import { keysetCursorParam, recordId, storable } from './common';
import { calendarDay } from './days';
import { rangeInput } from './ranges';

export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
export const referralCodeValue = z
  .string()
  .trim()
  .regex(REFERRAL_CODE_PATTERN, '3 to 32 characters: letters, digits, _ or -');

export const createReferralCodeInput = z.object({
  code: referralCodeValue,
  label: storable(z.string().trim().max(64)).optional(),
});
export type CreateReferralCodeInput = z.output<typeof createReferralCodeInput>;

export const OVERVIEW_CODES_PER_PAGE = 50;

export const affiliateStatsInput = rangeInput.extend({
  /** Admins may pick an affiliate; an affiliate may only name themselves. */
  ownerId: recordId.optional(),
  /** The overview's code list is paged newest first: continue after the page that returned this `codesNextCursor`. */
  codesCursor: keysetCursorParam.optional(),
  codesPerPage: z.number().int().min(1).max(100).default(OVERVIEW_CODES_PER_PAGE),
});
export type AffiliateStatsInput = Omit<z.output<typeof affiliateStatsInput>, 'codesPerPage'> & {
  codesPerPage?: number;
};

/** A statement's period: whole UTC days, `to` included (a month is its first and last day). */
export const affiliateStatementInput = z
  .object({
    from: calendarDay,
    to: calendarDay,
    /** Admins may pick an affiliate (or none: every affiliate); an affiliate may only name themselves. */
    ownerId: recordId.optional(),
  })
  .refine(({ from, to }) => from <= to, { path: ['to'], message: 'Choose an end date on or after the start date' });
export type AffiliateStatementInput = z.output<typeof affiliateStatementInput>;
