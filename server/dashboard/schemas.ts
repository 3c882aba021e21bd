import { z } from 'zod';
import { ROLES } from '../auth/roles';
import { TX_STATUSES } from '../schemas/transactions';

/** Dashboard inputs. Pure zod: shared by tRPC procedures, client components and tests. */

export const RANGES = ['24h', '7d', '30d'] as const;
export type Range = (typeof RANGES)[number];
export const rangeInput = z.object({ range: z.enum(RANGES).default('7d') });

export const TRANSACTION_SORT_FIELDS = ['createdAt', 'amountUsd', 'status', 'provider'] as const;
export type TransactionSortField = (typeof TRANSACTION_SORT_FIELDS)[number];

export const transactionSearchInput = z
  .object({
    /** A transaction id, lock id, any of the three hashes, or a wallet. */
    query: z.string().trim().max(256).optional(),
    statuses: z.array(z.enum(TX_STATUSES)).max(TX_STATUSES.length).optional(),
    provider: z.string().trim().max(32).optional(),
    /** Matches the source or the destination chain. */
    chain: z.string().trim().max(32).optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    referralCode: z.string().trim().max(64).optional(),
    stale: z.boolean().optional(),
    sort: z
      .object({ field: z.enum(TRANSACTION_SORT_FIELDS), direction: z.enum(['asc', 'desc']) })
      .default({ field: 'createdAt', direction: 'desc' }),
    page: z.number().int().min(1).max(100_000).default(1),
    perPage: z.number().int().min(1).max(100).default(25),
  })
  .refine((input) => !input.from || !input.to || input.from <= input.to, {
    path: ['to'],
    message: 'must not be before from',
  });
export type TransactionSearchInput = z.output<typeof transactionSearchInput>;

export const transactionIdInput = z.object({ id: z.string().trim().min(1).max(64) });

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

export const roleValue = z.enum(ROLES);

export const setUserRoleInput = z.object({ userId: z.string().trim().min(1).max(64), role: roleValue });
export type SetUserRoleInput = z.output<typeof setUserRoleInput>;

export const createUserInput = z.object({
  email: z.email().trim().toLowerCase().max(254),
  name: z.string().trim().min(1).max(100),
  password: z.string().min(12, 'at least 12 characters').max(128),
  role: roleValue,
});
export type CreateUserInput = z.output<typeof createUserInput>;
