import { router } from '../init';
import { affiliatesRouter } from './affiliates';
import { auditRouter } from './audit';
import { locksRouter } from './locks';
import { operationsRouter } from './operations';
import { rateLimitsRouter } from './rate-limits';
import { sessionRouter } from './session';
import { transactionsRouter } from './transactions';
import { usersRouter } from './users';
import { webhooksRouter } from './webhooks';

export const appRouter = router({
  session: sessionRouter,
  transactions: transactionsRouter,
  locks: locksRouter,
  rateLimits: rateLimitsRouter,
  operations: operationsRouter,
  affiliates: affiliatesRouter,
  users: usersRouter,
  webhooks: webhooksRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
