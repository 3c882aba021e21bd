import {
  createUserWithRole,
  deactivateUser,
  listUsers,
  reactivateUser,
  resetUserPassword,
  setUserRole,
} from '../../auth/users';
import { createUserInput, setUserRoleInput, userIdInput } from '../../schemas/users';
import { adminProcedure, router } from '../init';

const asAdmin = adminProcedure.input(userIdInput);

export const usersRouter = router({
  list: adminProcedure.query(({ ctx }) => listUsers(ctx.app)),
  create: adminProcedure
    .input(createUserInput)
    .mutation(({ ctx, input }) => createUserWithRole(ctx.app, input, { actor: ctx.viewer, origin: ctx.origin })),
  setRole: adminProcedure
    .input(setUserRoleInput)
    .mutation(({ ctx, input }) => setUserRole(ctx.app, ctx.viewer, input, ctx.origin)),
  deactivate: asAdmin.mutation(({ ctx, input }) =>
    deactivateUser(ctx.app, { actor: ctx.viewer, headers: ctx.headers, origin: ctx.origin }, input),
  ),
  reactivate: asAdmin.mutation(({ ctx, input }) =>
    reactivateUser(ctx.app, { actor: ctx.viewer, headers: ctx.headers, origin: ctx.origin }, input),
  ),
  resetPassword: asAdmin.mutation(({ ctx, input }) =>
    resetUserPassword(ctx.app, { actor: ctx.viewer, headers: ctx.headers, origin: ctx.origin }, input),
  ),
});
