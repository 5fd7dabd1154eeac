import pino, { type Logger } from 'pino';
import { createServices, type Services } from './app-services';
import type { Config } from './config';
import { createDb, createPool } from './db/client';
import { runMigrations } from './db/migrate';
import { createSecrets } from './lib/crypto';
import { createMailer } from './lib/mailer';
import { loadSecretKey } from './lib/secret-key';

/** Fields that must never reach a log line (DESIGN.md "Logs"). */
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
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: LOG_REDACT, censor: '[redacted]' } });
}

/** Connects to the database, migrates it, and wires every service. */
export async function openServices(
  config: Config,
  databaseUrl: string,
  log: Logger,
): Promise<Services> {
  const pool = createPool(databaseUrl);
  const db = createDb(pool);
  await runMigrations(db);
  const services = createServices({
    config,
    pool,
    db,
    secrets: createSecrets(loadSecretKey(config.dataDir, config.secretKeyHex)),
    mailer: createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log }),
    log,
  });
  await services.settings.ensureDefaults();
  await services.prices.loadCached();
  return services;
}
