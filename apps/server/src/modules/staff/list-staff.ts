import { normaliseRoles, type TAdminStaffList } from '@coffer/shared';
import { staffRepository as repo } from './staff.repository';
import type { StaffContext } from './staff-context';

/** The Staff screen: every staff member, their roles, factors and hold; never a secret. */
export async function listStaff(ctx: StaffContext): Promise<TAdminStaffList> {
  const rows = await repo.list(ctx.pool);
  return {
    staff: rows.map((r) => ({
      id: r.id,
      email: r.email,
      fullName: r.full_name,
      username: r.username,
      roles: normaliseRoles(r.roles),
      lastLogin: r.last_login ? r.last_login.toISOString() : null,
      twoFactorEnabled: r.two_factor_enabled,
      passkeys: r.passkeys,
      onHold: r.hold_until !== null,
      holdUntil: r.hold_until ? r.hold_until.toISOString() : null,
      frozen: r.frozen,
    })),
  };
}
