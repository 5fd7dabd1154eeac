import { normaliseRoles, STAFF_MANAGE_MSG, type TStaffRole } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { ChangeKind } from '../staff-changes';
import { staffRepository as repo } from './staff.repository';
import {
  assertOwnerRemains,
  lockMember,
  rolesText,
  STAFF_ROLES_CHANGE,
  type StaffContext,
} from './staff-context';

/** A role change as the change stores it. */
export type RolesPayload = { userId: string; roles: TStaffRole[] };

/**
 * A staff member's roles, two people: one owner proposes, another approves (`staff.manage`);
 * the staff member it concerns never approves it, even as an owner. Never leaves the back
 * office without an owner (checked at proposal and again, under every staff row's lock, at
 * approval). It counts from the member's next request: the session look-up reads the roles
 * every time. A newer proposal for the same member replaces a pending one.
 */
export function staffRolesKind(_ctx: StaffContext): ChangeKind<RolesPayload> {
  return {
    kind: STAFF_ROLES_CHANGE,
    approvedWith: 'staff.manage',
    async describe(client, payload) {
      const roles = normaliseRoles(payload.roles);
      const { all, member } = await lockMember(client, payload.userId);
      const current = normaliseRoles(member.roles);
      if (current.join() === roles.join()) {
        throw new AppError('CONFLICT', STAFF_MANAGE_MSG.sameRoles);
      }
      assertOwnerRemains(all, member, roles);
      return {
        summary: `Change the roles of ${member.email} from ${rolesText(current)} to ${rolesText(roles)}`,
        before: { email: member.email, roles: current },
        after: { email: member.email, roles },
        subjectUserId: member.user_id,
        targetKey: member.user_id,
        payload: { userId: member.user_id, roles },
      };
    },
    async apply(client, payload) {
      const { all, member } = await lockMember(client, payload.userId);
      assertOwnerRemains(all, member, payload.roles);
      await repo.setRoles(client, member.user_id, payload.roles);
      return { roles: payload.roles };
    },
  };
}
