import { createUserWithRole, listUsers, setUserRole } from '../../auth/users';
import { createUserInput, setUserRoleInput } from '../../schemas/users';
import { adminProcedure, router } from '../init';

export const usersRouter = router({
  list: adminProcedure.query(({ ctx }) => listUsers(ctx.app)),
  create: adminProcedure.input(createUserInput).mutation(({ ctx, input }) => createUserWithRole(ctx.app, input)),
  setRole: adminProcedure.input(setUserRoleInput).mutation(({ ctx, input }) => setUserRole(ctx.app, ctx.viewer, input)),
});
