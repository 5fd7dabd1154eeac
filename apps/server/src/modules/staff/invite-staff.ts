import { randomBytes } from 'node:crypto';
import { normaliseRoles, STAFF_MANAGE_MSG, type TStaffRole } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { hashPassword } from '@server/lib/password';
import type { ChangeKind } from '../staff-changes';
import { staffRepository as repo } from './staff.repository';
import { rolesText, STAFF_INVITE, type StaffContext } from './staff-context';

/** An invitation as the change stores it: whom, with which roles. */
export type InvitePayload = { email: string; roles: TStaffRole[] };

/**
 * Inviting a staff member, two people (decision 0036): one owner proposes, another approves
 * (`staff.manage`). On approval the account is created, e-mail verified, with the roles and
 * no usable password (a random one nobody knows), and a single-use set-password link is
 * mailed (security-hold's `set_password_tokens`, 72 hours); the invitee sets a password,
 * signs in and sets up two-factor authentication (staff always need it; they get no
 * recovery phrase). An address that already has an account is refused, at proposal and
 * again at approval. A newer invitation of the same address replaces a pending one.
 */
export function staffInviteKind(ctx: StaffContext): ChangeKind<InvitePayload> {
  return {
    kind: STAFF_INVITE,
    approvedWith: 'staff.manage',
    async describe(client, payload) {
      const roles = normaliseRoles(payload.roles);
      if (await repo.emailTaken(client, payload.email)) {
        throw new AppError('CONFLICT', STAFF_MANAGE_MSG.emailTaken);
      }
      return {
        summary: `Invite ${payload.email} to the staff as ${rolesText(roles)}`,
        before: null,
        after: { email: payload.email, roles },
        subjectUserId: null,
        targetKey: payload.email,
        payload: { email: payload.email, roles },
      };
    },
    async apply(client, payload) {
      // Nobody knows this password: the account opens only with the mailed link.
      const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
      const created = await ctx.accounts.createAdminIn(
        client,
        { email: payload.email, passwordHash, verified: true },
        payload.roles,
      );
      if (!created) throw new AppError('CONFLICT', STAFF_MANAGE_MSG.emailTaken);
      const { link, validHours } = await ctx.securityHold.newSetPasswordLink(client, created.id);
      await ctx.outbox.mail(client, {
        to: payload.email,
        subject: 'You are invited to the Coffer back office',
        text: [
          `You are invited to work in the Coffer back office as ${rolesText(payload.roles)}.`,
          '',
          'Set your password with this link:',
          link,
          '',
          `The link works once, for ${validHours} hours. Then sign in at ${ctx.publicUrl}/auth and set up two-factor authentication: staff always sign in with a second factor.`,
          '',
          'If you did not expect this invitation, do not use the link and tell the Coffer team.',
        ].join('\n'),
      });
      return { userId: created.id };
    },
  };
}
