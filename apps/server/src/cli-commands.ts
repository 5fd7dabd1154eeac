import { parseArgs } from 'node:util';
import { ZEmail, ZNewPassword } from '@coffer/shared';
import type { Services } from './app-services';
import { hashPassword } from './lib/password';

/** A refusal the operator can act on: printed as it is, without a stack trace. */
export class CliError extends Error {}

export type CliCommand = { usage: string; run(s: Services, args: string[]): Promise<string> };

/** The operator tasks of `npm run cli`, apart from the process around them so tests can run them. */
export const COMMANDS: Record<string, CliCommand> = {
  'create-admin': {
    usage: 'create-admin --email E --password P',
    async run(s, args) {
      const { values } = parseArgs({
        args,
        options: { email: { type: 'string' }, password: { type: 'string' } },
      });
      const email = ZEmail.safeParse(values.email ?? '');
      if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
      const password = ZNewPassword.safeParse(values.password ?? '');
      if (!password.success)
        throw new CliError(password.error.issues[0]?.message ?? 'Invalid password.');
      const created = await s.db.transaction(async (tx) => {
        const user = await s.users.create(
          { email: email.data, passwordHash: await hashPassword(password.data), verified: true },
          tx,
        );
        if (user) await s.users.makeAdmin(user.id, tx);
        return user;
      });
      if (!created) throw new CliError(`An account with the e-mail ${email.data} already exists.`);
      return `Admin ${email.data} created. Sign in at ${s.config.publicUrl}/auth and set up two-factor authentication.`;
    },
  },
};
