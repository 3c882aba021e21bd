import { z } from 'zod';
import { dateBound, keysetCursorParam, storable } from '../schemas/common';
import { AUDIT_ACTION_NAMES, AUDIT_TARGET_TYPES } from './catalog';

export const AUDIT_PAGE_SIZE = 50;

/** The audit page's filters; each one alone is served by an index that ends in (at, id). */
export const auditFilterInput = z.object({
  /** An email (any case; a failed sign-in's email tried included) or a user id. */
  actor: storable(z.string().trim().min(1).max(320)).optional(),
  action: z.enum(AUDIT_ACTION_NAMES as [string, ...string[]]).optional(),
  targetType: z.enum(AUDIT_TARGET_TYPES as [string, ...string[]]).optional(),
  targetId: storable(z.string().trim().min(1).max(200)).optional(),
  from: dateBound.optional(),
  to: dateBound.optional(),
});
export type AuditFilter = z.output<typeof auditFilterInput>;

export const auditListInput = auditFilterInput.extend({
  /** Newest first: continue after the page that returned this `nextCursor`. */
  cursor: keysetCursorParam.optional(),
  limit: z.number().int().min(1).max(200).default(AUDIT_PAGE_SIZE),
});
export type AuditListInput = Omit<z.output<typeof auditListInput>, 'limit'> & { limit?: number };

export const FAILED_SIGN_IN_WINDOWS = ['1h', '24h', '7d'] as const;
export const failedSignInsInput = z.object({ window: z.enum(FAILED_SIGN_IN_WINDOWS).default('24h') });
