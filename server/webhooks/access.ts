import { and, eq, inArray, or } from 'drizzle-orm';
import { authUsers, webhookEndpoints } from '../../drizzle/schema';
import { GATES, type Gate, passesGate, type Viewer } from '../auth/roles';
import type { Executor } from '../db';
import { AppError } from '../errors';
import type { WebhookScope } from './schemas';

/** An endpoint's owner as they are now: the role and status deliveries and management are judged by. */
export interface EndpointOwner {
  email: string | null;
  role: string | null;
  banned: boolean | null;
}

/** The owner columns of a query that joins `authUsers` to `webhookEndpoints`; a left join's missing owner reads as NO_OWNER. */
export const ownerColumns = { email: authUsers.email, role: authUsers.role, banned: authUsers.banned };
export const NO_OWNER: EndpointOwner = { email: null, role: null, banned: null };

/** Every swap (`all`) is for admins; referred swaps (`affiliate`) for affiliates and admins; nothing for a deactivated owner. */
const SCOPE_GATE = { all: 'admin', affiliate: 'affiliate' } as const satisfies Record<WebhookScope, Gate>;

/**
 * Why an endpoint sends nothing because of who owns it now, in plain words; null while its owner
 * may still receive what it is registered for.
 */
export function ownerBlock(scope: WebhookScope, owner: EndpointOwner): string | null {
  const who = owner.email ? `Its owner, ${owner.email},` : 'Its owner';
  if (owner.banned || owner.role === null) {
    return `${who} has been deactivated. Nothing is sent to it unless they are reactivated.`;
  }
  if (passesGate(owner.role, SCOPE_GATE[scope])) return null;
  return scope === 'all'
    ? `${who} is no longer an admin, and only admins may receive every swap. Nothing is sent to it.`
    : `${who} is no longer an affiliate. Nothing is sent to it.`;
}

/** `ownerBlock(…) === null` as SQL, for queries that join the owner (`authUsers`) to `webhookEndpoints`. */
export const ownerMayReceive = () =>
  and(
    eq(authUsers.banned, false),
    or(
      and(eq(webhookEndpoints.scope, 'all'), inArray(authUsers.role, [...GATES[SCOPE_GATE.all]])),
      and(eq(webhookEndpoints.scope, 'affiliate'), inArray(authUsers.role, [...GATES[SCOPE_GATE.affiliate]])),
    ),
  );

/**
 * The viewer as the database knows them at this call, not as their session was when it began: a
 * demoted or deactivated user loses what they lost at once, whatever context they still hold.
 * `lock` holds their row until the transaction `db` ends, so a change of role waits for it.
 */
export async function currentViewer(
  db: Executor,
  viewer: Viewer,
  gate: Gate,
  { lock = false }: { lock?: boolean } = {},
): Promise<Viewer> {
  const query = db
    .select({ role: authUsers.role, banned: authUsers.banned })
    .from(authUsers)
    .where(eq(authUsers.id, viewer.userId));
  const [user] = lock ? await query.for('update') : await query;
  if (!user || user.banned || !passesGate(user.role, gate)) {
    throw new AppError('VALIDATION_ERROR', 'Your account may no longer do this', { status: 403, retryable: false });
  }
  return { ...viewer, role: user.role as Viewer['role'] };
}

/** Admins manage every endpoint; anyone else only their own, and only those their role may still receive. */
export const manageableBy = (viewer: Viewer) =>
  viewer.role === 'admin'
    ? undefined
    : and(eq(webhookEndpoints.ownerId, viewer.userId), eq(webhookEndpoints.scope, 'affiliate'));
