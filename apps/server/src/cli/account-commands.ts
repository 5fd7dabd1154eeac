import {
  passwordUserInputs,
  passwordWeakness,
  STAFF_MSG,
  STAFF_ROLES,
  type TStaffRole,
  ZEmail,
  ZNewPassword,
} from '@coffer/shared';
import { withTransaction } from '../db/tx';
import { hashPassword } from '../lib/password';
import { type CliCommand, CliError, optionsOf } from './cli-support';

export const createAdmin: CliCommand = {
  usage: 'create-admin --email E --password P [--role owner,approver,…]',
  /**
   * Bootstraps staff from the console. Without `--role` the account gets every role, as
   * the first admin of a new install needs; later staff are better invited in the app.
   */
  async run(s, args) {
    const { values } = optionsOf(
      args,
      { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } },
      { positionals: false },
    );
    const roles = parseRoles(values.role);
    const email = ZEmail.safeParse(values.email ?? '');
    if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
    const password = ZNewPassword.safeParse(values.password ?? '');
    if (!password.success)
      throw new CliError(password.error.issues[0]?.message ?? 'Invalid password.');
    const weakness = await passwordWeakness(password.data, passwordUserInputs(email.data));
    if (weakness) throw new CliError(weakness);
    const created = await s.users.createAdmin(
      { email: email.data, passwordHash: await hashPassword(password.data), verified: true },
      roles,
    );
    if (!created) throw new CliError(`An account with the e-mail ${email.data} already exists.`);
    return `Admin ${email.data} created with the roles ${roles.join(', ')}. Sign in at ${s.config.publicUrl}/auth and set up two-factor authentication.`;
  },
};

/** `--role support,approver`: known roles, at least one; every role when the option is absent. */
function parseRoles(value: string | undefined): TStaffRole[] {
  if (value === undefined) return [...STAFF_ROLES];
  const names = value
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  const unknown = names.filter((r) => !(STAFF_ROLES as readonly string[]).includes(r));
  if (unknown.length > 0) {
    throw new CliError(
      `Unknown role ${unknown.join(', ')}: the roles are ${STAFF_ROLES.join(', ')}.`,
    );
  }
  if (names.length === 0) throw new CliError(STAFF_MSG.noRoles);
  return [...new Set(names)] as TStaffRole[];
}

export const resetAdmin2fa: CliCommand = {
  usage: 'reset-admin-2fa --email E --reason R',
  /**
   * For an admin locked out of their second factor when no other admin can help: the
   * factor removed, every session ended, a security hold started (its mail tells the admin,
   * with a "This wasn't me" link), the security event and an audit row (its actor empty:
   * the operator at the server's console), all in the same transaction.
   */
  async run(s, args) {
    const { values } = optionsOf(
      args,
      { email: { type: 'string' }, reason: { type: 'string' } },
      { positionals: false },
    );
    const email = ZEmail.safeParse(values.email ?? '');
    if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
    const reason = (values.reason ?? '').trim();
    if (reason === '') throw new CliError('Say why (--reason): it goes to the audit log.');
    const user = await s.users.findByEmail(email.data);
    if (!user || !(await s.users.isAdmin(user.id))) {
      throw new CliError(`No admin with the e-mail ${email.data}. Nothing changed.`);
    }
    const ended = await withTransaction(s.pool, async (client) => {
      const sessionsEnded = await s.twoFactor.resetForOperator(client, user.id);
      await s.securityHold.start(client, {
        userId: user.id,
        email: user.email,
        event: 'operator-two-factor-reset',
        from: null,
      });
      await s.securityLog.record(client, { userId: user.id, kind: 'two-factor-reset-by-staff' });
      await s.audit.record(client, {
        actorId: null,
        action: 'admin.2fa.reset',
        targetType: 'user',
        targetId: user.id,
        targetUserId: user.id,
        before: { twoFactorEnabled: true },
        after: { twoFactorEnabled: false, sessionsEnded },
        reason,
        ip: null,
      });
      return sessionsEnded;
    });
    await s.outbox.deliver();
    return `Two-factor authentication of ${email.data} was reset and ${ended} session(s) ended; written to the audit log. They set up a new authenticator at their next sign-in.`;
  },
};
