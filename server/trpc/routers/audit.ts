import { failedSignIns, listAuditEvents } from '../../audit/list';
import { auditListInput, failedSignInsInput } from '../../audit/schemas';
import { onReadTarget, sessionFences } from '../../read-context';
import { adminProcedure, router } from '../init';

export const auditRouter = router({
  list: adminProcedure
    .input(auditListInput)
    .query(({ ctx, input }) => onReadTarget(ctx.app, (on) => listAuditEvents(on, input), sessionFences(ctx.viewer))),
  failedSignIns: adminProcedure
    .input(failedSignInsInput)
    .query(({ ctx, input }) => onReadTarget(ctx.app, (on) => failedSignIns(on, input), sessionFences(ctx.viewer))),
});
