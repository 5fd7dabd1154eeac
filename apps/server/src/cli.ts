import { parseArgs } from 'node:util';
import { ZEmail, ZNewPassword } from '@coffer/shared';
import type { Services } from './app-services';
import { loadConfig } from './config';
import { startEmbeddedPostgres } from './db/embedded';
import { createLogger, openServices } from './infra';
import { hashPassword } from './lib/password';

/** `npm run cli -- <command> [options]`: operator tasks that have no screen. */
const COMMANDS: Record<string, { usage: string; run(s: Services, args: string[]): Promise<string> }> = {
  'create-admin': {
    usage: 'create-admin --email E --password P',
    async run(s, args) {
      const { values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' } } });
      const email = ZEmail.safeParse(values.email ?? '');
      if (!email.success) throw new CliError(email.error.issues[0]?.message ?? 'Invalid e-mail.');
      const password = ZNewPassword.safeParse(values.password ?? '');
      if (!password.success) throw new CliError(password.error.issues[0]?.message ?? 'Invalid password.');
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

class CliError extends Error {}

async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`Usage: npm run cli -- <command>\n\nCommands:\n${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join('\n')}`);
    return 2;
  }
  const config = loadConfig();
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({ dir: config.dataDir, port: Number(process.env.EMBEDDED_PG_PORT ?? 54329), ifRunning: 'reuse' });
  const services = await openServices(config, config.databaseUrl ?? embedded?.url ?? '', log);
  try {
    console.log(await command.run(services, args));
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await services.pool.end();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
