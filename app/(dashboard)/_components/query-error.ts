/** The message and tRPC code of a failed query or mutation, safe to show (the server already hides internals). */
export function describeError(error: unknown): { message: string; code: string | null } {
  const e = error as { message?: unknown; data?: { code?: unknown } | null };
  const code = typeof e?.data?.code === 'string' ? e.data.code : null;
  const message = typeof e?.message === 'string' && e.message ? e.message : 'Unexpected error';
  if (code === 'UNAUTHORIZED') return { code, message: 'Your session has ended. Sign in again to continue.' };
  if (code === 'FORBIDDEN') return { code, message: "Your role doesn't allow this." };
  return { message, code };
}
