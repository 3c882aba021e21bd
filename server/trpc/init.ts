import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { requestOrigin } from '../audit/origin';
import type { RequestOrigin } from '../audit/record';
import { GATES, type Gate, passesGate, type Viewer } from '../auth/roles';
import { getViewer } from '../auth/session';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { newRequestId } from '../ids';
import { clientAddress } from '../ratelimit/client';
import { sessionFences } from '../read-context';
import { issueField, plainFieldErrors } from '../schemas/plain-words';
import { toTRPCError } from './error-codes';
import { limitDashboardCall } from './rate-limit';

export interface DashboardContext {
  app: AppContext;
  viewer: Viewer | null;
  /** The request's headers, for Better Auth admin calls that act as the signed-in admin. */
  headers: Headers;
  /** The request's id, client address and user agent, for the audit log. */
  origin: RequestOrigin;
}

export async function createDashboardContext({
  app,
  headers,
}: {
  app: AppContext;
  headers: Headers;
}): Promise<DashboardContext> {
  const viewer = await getViewer(app, headers).catch((error) => {
    throw toTRPCError(error);
  });
  return {
    app,
    viewer,
    headers,
    origin: requestOrigin(headers, clientAddress({ headers }, app.config), newRequestId()),
  };
}

const t = initTRPC.context<DashboardContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const { stack: _stack, ...data } = shape.data;
    // tRPC wraps what failed outside our code (a body that does not parse, superjson overflowing its
    // stack on deep nesting) and would answer with that error's own text.
    const ours =
      cause === undefined || cause instanceof AppError || cause instanceof ZodError || cause instanceof TRPCError;
    // zod's message is its issues as JSON: people get each field's issue in words instead.
    const fieldErrors = cause instanceof ZodError ? plainFieldErrors(cause.issues, nounsOf(cause)) : null;
    return {
      ...shape,
      message: fieldErrors
        ? invalidInputMessage(fieldErrors)
        : ours
          ? shape.message
          : error.code === 'INTERNAL_SERVER_ERROR'
            ? 'Internal error'
            : 'Malformed request',
      data: {
        ...data,
        field: cause instanceof AppError ? (cause.field ?? null) : null,
        fieldErrors,
      },
    };
  },
});

/** "the user id" for `userId`: the server does not know a form's labels, only its field names. */
function nounsOf(error: ZodError) {
  return Object.fromEntries(
    error.issues
      .map(issueField)
      .map((field) => [field, `the ${field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`]),
  );
}

const invalidInputMessage = (fieldErrors: Record<string, string>) =>
  `Some values were not accepted. ${Object.values(fieldErrors).join('. ')}.`;

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Turns whatever a domain function threw into the matching tRPC error, in one place for every procedure. */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && !(result.error.cause instanceof TRPCError)) {
    throw toTRPCError(result.error.cause ?? result.error);
  }
  return result;
});

/** A session's acknowledged mutation is in its later reads, which wait for its fence on a replica. */
const fenceSessionChanges = t.middleware(async ({ ctx, type, next }) => {
  const result = await next();
  if (type === 'mutation' && result.ok && ctx.viewer && ctx.app.reads.replicated) {
    await ctx.app.reads.fence(sessionFences(ctx.viewer));
  }
  return result;
});

const baseProcedure = t.procedure.use(mapDomainErrors).use(fenceSessionChanges);

export const signedInProcedure = baseProcedure.use(async ({ ctx, next }) => {
  if (!ctx.viewer) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  await limitDashboardCall(ctx.app, ctx.viewer.userId);
  return next({ ctx: { ...ctx, viewer: ctx.viewer } });
});

const gated = (gate: Gate) =>
  signedInProcedure.use(({ ctx, next }) => {
    if (!passesGate(ctx.viewer.role, gate)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: `This needs the ${GATES[gate].join(' or ')} role` });
    }
    return next();
  });

/** Support staff and admins. */
export const supportProcedure = gated('support');
/** Admins only. */
export const adminProcedure = gated('admin');
/** Affiliates and admins. */
export const affiliateProcedure = gated('affiliate');
