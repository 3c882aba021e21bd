import type { FieldErrors } from '@/server/schemas/plain-words';

/**
 * The message, tRPC code and per-field messages of a failed query or mutation, safe to show: the
 * server already hides internals and words validation issues for people (server/trpc/init.ts).
 */
export function describeError(error: unknown): { message: string; code: string | null; fieldErrors: FieldErrors } {
  const e = error as {
    message?: unknown;
    data?: { code?: unknown; field?: unknown; fieldErrors?: unknown } | null;
  };
  const code = typeof e?.data?.code === 'string' ? e.data.code : null;
  const message = typeof e?.message === 'string' && e.message ? e.message : 'Unexpected error';
  if (code === 'UNAUTHORIZED')
    return { code, message: 'Your session has ended. Sign in again to continue.', fieldErrors: {} };
  if (code === 'FORBIDDEN') return { code, message: "Your role doesn't allow this.", fieldErrors: {} };
  const listed =
    e?.data?.fieldErrors && typeof e.data.fieldErrors === 'object' ? (e.data.fieldErrors as FieldErrors) : {};
  const field = typeof e?.data?.field === 'string' ? { [e.data.field]: message } : {};
  return { message, code, fieldErrors: { ...listed, ...field } };
}
