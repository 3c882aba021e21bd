import { z } from 'zod';
import { ROLES } from '../auth/roles';
import { recordId, storable } from './common';

export const roleValue = z.enum(ROLES);

const userId = recordId;

export const setUserRoleInput = z.object({ userId, role: roleValue });
export type SetUserRoleInput = z.output<typeof setUserRoleInput>;

export const createUserInput = z.object({
  email: z.email().trim().toLowerCase().max(254),
  name: storable(z.string().trim().min(1).max(100)),
  password: z.string().min(12, 'at least 12 characters').max(128),
  role: roleValue,
});
export type CreateUserInput = z.output<typeof createUserInput>;

/** What the sign-up and sign-in forms check before Better Auth does, with its length rules. */
export const signUpInput = createUserInput.omit({ role: true });
export const signInInput = z.object({ email: z.email().trim(), password: z.string().min(1) });

/** How each account field is named when something is wrong with it. */
export const ACCOUNT_NOUNS = { name: 'a name', email: 'an email address', password: 'a password', role: 'a role' };

export const userIdInput = z.object({ userId });
export type UserIdInput = z.output<typeof userIdInput>;
