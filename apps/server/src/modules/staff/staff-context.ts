import { STAFF_MANAGE_MSG, STAFF_MSG, STAFF_ROLE_LABELS, type TStaffRole } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { Users } from '../auth';
import type { Outbox } from '../outbox';
import type { SecurityHold } from '../security-hold';
import type { StaffChanges } from '../staff-changes';
import type { StepUp } from '../step-up';
import { staffRepository as repo, type StaffMemberRow } from './staff.repository';

/** The kind names of the staff's two-person changes. */
export const STAFF_INVITE = 'staff.invite';
export const STAFF_ROLES_CHANGE = 'staff.roles';

/**
 * What the parts of the staff service share, given once to `createStaffService`: the two-
 * person changes an invitation and a role change go through, the accounts an invitation
 * creates, the set-password link it mails, and what a removal needs (step-up, audit).
 */
export type StaffContext = {
  pool: pg.Pool;
  audit: AuditLog;
  stepUp: Pick<StepUp, 'confirm'>;
  changes: StaffChanges;
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  accounts: Pick<Users, 'createAdminIn'>;
  securityHold: Pick<SecurityHold, 'newSetPasswordLink'>;
  publicUrl: string;
};

export const rolesText = (roles: readonly string[]) =>
  roles.map((r) => STAFF_ROLE_LABELS[r as TStaffRole] ?? r).join(', ');

/** Every staff member locked, and the one asked for; a 404 when they are not staff. */
export async function lockMember(
  client: TxClient,
  userId: string,
): Promise<{ all: StaffMemberRow[]; member: StaffMemberRow }> {
  const all = await repo.lockAll(client);
  const member = all.find((m) => m.user_id === userId);
  if (!member) throw new AppError('NOT_FOUND', STAFF_MANAGE_MSG.notStaff);
  return { all, member };
}

/**
 * Refuses what would leave the back office without an owner: nobody could then invite,
 * change roles or approve another owner's change, and only the console could repair it.
 * `after` is the member's roles after the change (none: removed).
 */
export function assertOwnerRemains(
  all: readonly StaffMemberRow[],
  member: StaffMemberRow,
  after: readonly string[],
): void {
  if (!member.roles.includes('owner') || after.includes('owner')) return;
  const others = all.filter((m) => m.user_id !== member.user_id && m.roles.includes('owner'));
  if (others.length === 0) throw new AppError('CONFLICT', STAFF_MSG.lastOwner);
}
