import { z } from 'zod';
import { ZEmail } from '../validation/email';
import { STAFF_RESET_REASON_MISSING } from './admin-users';
import { STAFF_MSG, STAFF_ROLES, type TStaffRole, ZStaffRole } from './staff';
import { ZStepUp } from './step-up';

/**
 * Staff managed in the app (the Staff screen): an owner invites, changes roles and removes;
 * an invitation and a role change wait for another owner's approval (two people), a
 * removal applies at once (it only takes access away).
 */

export const STAFF_MANAGE_MSG = {
  emailTaken: 'An account with this e-mail already exists: invite another address.',
  notStaff: 'This staff member does not exist.',
  sameRoles: 'These are already the roles of this staff member.',
  removeSelf: 'You cannot remove yourself from the staff: another owner must do it.',
  resetSelf:
    'You cannot reset your own second factor: another staff member proposes it and an owner approves it.',
  noFactor: 'Two-factor authentication is not enabled.',
} as const;

/** How long an invitation's set-password link works, from the approval. */
export const STAFF_INVITE_LINK_HOURS = 72;

/** Roles as a form sends them: at least one, each known; kept once each, in the table's order. */
export const ZStaffRoles = z
  .array(ZStaffRole, { error: STAFF_MSG.noRoles })
  .min(1, STAFF_MSG.noRoles)
  .max(STAFF_ROLES.length)
  .transform((roles) => normaliseRoles(roles));

/** Roles once each, in the order of STAFF_ROLES: two lists of the same roles compare equal. */
export function normaliseRoles(roles: readonly string[]): TStaffRole[] {
  return STAFF_ROLES.filter((r) => roles.includes(r));
}

export const ZStaffInviteRequest = z.object({
  email: ZEmail,
  roles: ZStaffRoles,
  stepUp: ZStepUp,
});
export type TStaffInviteRequest = z.input<typeof ZStaffInviteRequest>;

export const ZStaffIdParams = z.object({ id: z.uuid({ error: STAFF_MANAGE_MSG.notStaff }) });

export const ZStaffRolesRequest = z.object({ roles: ZStaffRoles, stepUp: ZStepUp });
export type TStaffRolesRequest = z.input<typeof ZStaffRolesRequest>;

export const ZStaffRemoveRequest = z.object({ stepUp: ZStepUp });
export type TStaffRemoveRequest = z.infer<typeof ZStaffRemoveRequest>;

/** A removal's answer: who left the staff, and how many of their sessions were ended. */
export const ZStaffRemovedResponse = z.object({
  id: z.string(),
  email: z.string(),
  sessionsEnded: z.number().int(),
});
export type TStaffRemovedResponse = z.infer<typeof ZStaffRemovedResponse>;

/** A staff member's second factor reset from the Staff screen: proposed, an owner approves. */
export const ZStaffTwoFactorResetRequest = z.object(
  {
    reason: z
      .string({ error: STAFF_RESET_REASON_MISSING })
      .trim()
      .min(1, STAFF_RESET_REASON_MISSING)
      .max(500, 'Keep the reason under 500 characters'),
    stepUp: ZStepUp,
  },
  { error: STAFF_RESET_REASON_MISSING },
);
export type TStaffTwoFactorResetRequest = z.infer<typeof ZStaffTwoFactorResetRequest>;
