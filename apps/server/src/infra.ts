import path from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import { createServices, type Services } from './app-services';
import type { Config } from './config';
import { createDb, createPool, databaseAddress, waitForDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { createSecrets } from './lib/crypto';
import { createDiskFileStore, importDiskFiles } from './lib/file-store';
import { serializeError, serializeRequest } from './lib/log-redaction';
import { createMailer } from './lib/mailer';
import { requestIdMixin } from './lib/request-context';
import { checkSecretKey, noInstallationMessage } from './lib/secret-key';
import { StartupError } from './lib/startup-error';
import { verifyChainConfig } from './modules/chains';
import { SWEPT_PREFIXES } from './modules/outbox';

/** Fields that must never reach a log line (docs/architecture.md). */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.seedPhrase',
  '*.recoveryPhrase',
  '*.secret',
  '*.token',
  '*.code',
  '*.phrase',
];

/**
 * The app's logger. Its `req` serializer replaces Fastify's (which logs the URL as it came),
 * so no request line shows a verification token or any other secret query parameter; its
 * `err` serializer drops a failed query's parameters.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: LOG_REDACT, censor: '[redacted]' },
    serializers: { req: serializeRequest, err: serializeError },
    // Every line logged while a request is served names its request id, services' lines too.
    mixin: requestIdMixin,
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Connects to the database, migrates it, and wires every service. A database that is down
 * or still starting is waited for a few seconds, then named in a StartupError.
 */
export async function openServices(
  config: Config,
  databaseUrl: string,
  log: Logger,
  /**
   * Whether a new database may become a new installation (with a new key): the server's
   * start only. An operator command finding no installation stops, creating nothing.
   */
  { setUp = true }: { setUp?: boolean } = {},
): Promise<Services> {
  await waitForDatabase(databaseUrl);
  const pool = createPool(databaseUrl);
  const db = createDb(pool);
  // The key first: a missing or wrong key stops the start before migrations write anything.
  const secretKey = await checkSecretKey(pool, {
    dataDir: config.dataDir,
    key: config.secretKey,
    log,
    ...(setUp
      ? {}
      : {
          onNewDatabase: () => {
            throw new StartupError(
              noInstallationMessage({
                dataDir: config.dataDir,
                database: config.databaseUrl ? databaseAddress(config.databaseUrl) : null,
                key: config.secretKey,
              }),
            );
          },
        }),
  }).catch(async (err) => {
    await pool.end();
    throw err;
  });
  await runMigrations(db);
  const services = createServices({
    config,
    pool,
    db,
    secrets: createSecrets(secretKey),
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      log,
    }),
    log,
  });
  await services.settings.ensureDefaults();
  await services.prices.loadCached();
  // Files an install kept on disk before they moved into the database.
  const imported = await importDiskFiles(
    createDiskFileStore(path.join(config.dataDir, 'files')),
    services.files,
    SWEPT_PREFIXES,
  );
  if (imported > 0) log.info({ imported }, 'files imported from DATA_DIR/files into the database');
  // A chain configuration that does not fit its node (a token with other decimals) stops the
  // start; a node that does not answer yet does not: its watcher retries and reports.
  await verifyChainConfig(services.chainAdapters, (chain, err) =>
    log.warn({ chain, err: String(err) }, 'chain node did not answer the start-up check'),
  ).catch(async (err) => {
    await services.limiter.close();
    await pool.end();
    throw err;
  });
  return services;
}
