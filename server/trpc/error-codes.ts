import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { type AppError, toAppError } from '../errors';

/** The one table from AppError status to tRPC code; the status already carries the spec's 409-or-503 overrides. */
const BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

export const trpcCodeFor = (error: AppError): TRPC_ERROR_CODE_KEY => BY_STATUS[error.status] ?? 'INTERNAL_SERVER_ERROR';

/** Domain errors keep their message; anything unknown becomes a generic internal error with no detail. */
export function toTRPCError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  const appError = toAppError(error);
  return new TRPCError({ code: trpcCodeFor(appError), message: appError.message, cause: appError });
}
