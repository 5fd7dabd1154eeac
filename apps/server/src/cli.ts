import { BARE_COMMANDS, COMMANDS, OFFLINE_COMMANDS, printOutcome } from './cli-commands';
import { loadConfigOrExit } from './config';
import { waitForDatabase } from './db/client';
import { embeddedDatabaseExists, startEmbeddedPostgres } from './db/embedded';
import { createLogger, openServices } from './infra';
import { noInstallationMessage } from './lib/secret-key';
import { StartupError } from './lib/startup-error';

/** `npm run cli -- <command> [options]`: operator tasks that have no screen. */
async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2);
  // Offline commands read no configuration and open no database: the signer's machine.
  const offline = name ? OFFLINE_COMMANDS[name] : undefined;
  if (offline) return printOutcome(() => offline.run(args));
  const command = name ? COMMANDS[name] : undefined;
  const bare = name ? BARE_COMMANDS[name] : undefined;
  if (!command && !bare) {
    console.error(
      `Usage: npm run cli -- <command>\n\nCommands:\n${[
        ...Object.values(COMMANDS),
        ...Object.values(BARE_COMMANDS),
        ...Object.values(OFFLINE_COMMANDS),
      ]
        .map((c) => `  ${c.usage}`)
        .join('\n')}`,
    );
    return 2;
  }
  const config = loadConfigOrExit();
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn');
  // Only `npm start` and `restore` set up an installation: any other command run without
  // the server's environment (another DATA_DIR, no DATABASE_URL) stops before it starts a
  // database, rather than answer from a new, empty one with a new key.
  if (command && !config.databaseUrl && !embeddedDatabaseExists(config.dataDir)) {
    throw new StartupError(
      noInstallationMessage({ dataDir: config.dataDir, database: null, key: config.secretKey }),
    );
  }
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        dir: config.dataDir,
        port: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
        ifRunning: 'reuse',
      });
  if (bare) {
    const databaseUrl = config.databaseUrl ?? embedded?.url ?? '';
    // The same wait as every other command's (openServices): a database down or starting
    // up is one line, not a stack trace.
    return waitForDatabase(databaseUrl)
      .then(() => printOutcome(() => bare.run({ config, databaseUrl }, args)))
      .finally(() => embedded?.stop());
  }
  if (!command) return 2;
  // The same key check as the server's start: a missing or wrong key changes nothing here
  // either, and a database this command started is stopped again.
  const services = await openServices(config, config.databaseUrl ?? embedded?.url ?? '', log, {
    setUp: false,
  }).catch(async (err) => {
    await embedded?.stop();
    throw err;
  });
  try {
    return await printOutcome(() => command.run(services, args));
  } finally {
    await services.pool.end();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof StartupError ? `Coffer cannot start: ${err.message}` : err);
    process.exit(1);
  },
);
