import { createHash } from 'node:crypto';

/** The fields of a row the chain covers, as stored. */
export interface ChainedFields {
  id: number;
  at: Date;
  actorUserId: string | null;
  actorEmail: string | null;
  actorRole: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  prevHash: string | null;
}

/** Keys sorted at every depth: jsonb hands objects back in its own key order, so the stored order cannot count. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value ?? null;
}

/** sha256 (hex) of the row's fields and the previous row's hash, serialised as one JSON array in a fixed order. */
export function auditHash(row: ChainedFields): string {
  const fields = [
    row.id,
    row.at.toISOString(),
    row.actorUserId,
    row.actorEmail,
    row.actorRole,
    row.action,
    row.targetType,
    row.targetId,
    canonical(row.before),
    canonical(row.after),
    row.requestId,
    row.clientAddress,
    row.userAgent,
    row.prevHash,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}
