import type {
  TAdminStaffList,
  TPendingChange,
  TStaffRemovedResponse,
  TStaffRole,
  TStepUp,
} from '@coffer/shared';
import type { StaffActor } from '../staff-changes';
import { staffRolesKind } from './change-roles';
import { staffInviteKind } from './invite-staff';
import { listStaff } from './list-staff';
import { removeStaff } from './remove-staff';
import { STAFF_INVITE, STAFF_ROLES_CHANGE, type StaffContext } from './staff-context';

/**
 * Staff managed in the app, composed: the list, an invitation and a role change (two-person
 * changes whose kinds are registered here, once) and a removal (one owner, at once); each
 * use case is its own file taking the shared context (`staff-context.ts`).
 */
export function createStaffService(ctx: StaffContext) {
  ctx.changes.register(staffInviteKind(ctx));
  ctx.changes.register(staffRolesKind(ctx));
  return {
    list: (): Promise<TAdminStaffList> => listStaff(ctx),

    /** Proposes an invitation; another owner approves it. */
    invite: (
      actor: StaffActor,
      email: string,
      roles: TStaffRole[],
      proof: TStepUp,
    ): Promise<TPendingChange> => ctx.changes.propose(actor, STAFF_INVITE, { email, roles }, proof),

    /** Proposes new roles for a staff member; another owner, not the member, approves them. */
    changeRoles: (
      actor: StaffActor,
      userId: string,
      roles: TStaffRole[],
      proof: TStepUp,
    ): Promise<TPendingChange> =>
      ctx.changes.propose(actor, STAFF_ROLES_CHANGE, { userId, roles }, proof),

    remove: (actor: StaffActor, userId: string, proof: TStepUp): Promise<TStaffRemovedResponse> =>
      removeStaff(ctx, actor, userId, proof),
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
