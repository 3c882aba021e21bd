/** Dashboard roles. Pure: imported by client components, the auth config and the tRPC gates alike. */
export const ROLES = ['admin', 'support', 'affiliate'] as const;
export type Role = (typeof ROLES)[number];

/** The role every self sign-up gets; no request body can choose another. */
export const SELF_SIGN_UP_ROLE: Role = 'affiliate';

/** Which roles pass each procedure gate. Admins pass every gate. */
export const GATES = {
  support: ['support', 'admin'],
  admin: ['admin'],
  affiliate: ['affiliate', 'admin'],
} as const satisfies Record<string, readonly Role[]>;
export type Gate = keyof typeof GATES;

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

export function passesGate(role: unknown, gate: Gate): boolean {
  return isRole(role) && (GATES[gate] as readonly Role[]).includes(role);
}

/** The signed-in user as domain functions see it. */
export interface Viewer {
  userId: string;
  email: string;
  role: Role;
  /** The sign-in this request came with: the scope of its read-your-writes on a replica. */
  sessionId: string;
}
