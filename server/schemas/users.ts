import { z } from 'zod';
import { ROLES } from '../auth/roles';

export const roleValue = z.enum(ROLES);

const userId = z.string().trim().min(1).max(64);

export const setUserRoleInput = z.object({ userId, role: roleValue });
export type SetUserRoleInput = z.output<typeof setUserRoleInput>;

export const createUserInput = z.object({
  email: z.email().trim().toLowerCase().max(254),
  name: z.string().trim().min(1).max(100),
  password: z.string().min(12, 'at least 12 characters').max(128),
  role: roleValue,
});
export type CreateUserInput = z.output<typeof createUserInput>;

export const userIdInput = z.object({ userId });
export type UserIdInput = z.output<typeof userIdInput>;
