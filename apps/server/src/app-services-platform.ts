import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from './config';
import { createPool, type Db } from './db/client';
import type { Secrets } from './lib/crypto';
import { createDatabaseFileStore } from './lib/file-store';
import type { Mailer } from './lib/mailer';
import { createPgListener } from './lib/pg-listener';
import { createS3FileStore } from './lib/s3-file-store';
import { createAuditLog } from './modules/audit/audit.service';
import { createUsers } from './modules/auth';
import type { ChainAdapter } from './modules/chains';
import { createFileSweep, createOutbox } from './modules/outbox';
import { createSignInDevices } from './modules/rate-limit';
import { createRateLimiter } from './modules/rate-limit/rate-limiter';
import { createRealtimeHub } from './modules/realtime/realtime.hub';
import { createSecurityLog } from './modules/security-log';
import { createSessions } from './modules/sessions';
import { withSettingsCache } from './modules/settings/settings.cache';

export type Infra = {
  config: Config;
  pool: pg.Pool;
  db: Db;
  secrets: Secrets;
  mailer: Mailer;
  log: Logger;
  /** "Now" for time-driven money rules (staking accrual and credits); tests inject one. */
  clock?: () => Date;
  /** The chains to watch instead of the configured ones (tests pass scripted chains). */
  chainAdapters?: ChainAdapter[];
};

/**
 * The ground every area of services stands on, built first by `createServices`: private
 * files, the outbox, rate limits, the notification listener, settings, sessions, the audit
 * and security logs, and the realtime hub.
 */
export function createPlatform(infra: Infra) {
  const { pool, secrets, mailer, config } = infra;
  const clock = infra.clock ?? (() => new Date());
  // Private uploads (product.md S5): KYC documents and chat attachments.
  // Private files where every instance reads them: a bucket when STORAGE_URL names one,
  // else the database.
  const files = config.storage
    ? createS3FileStore(config.storage, secrets)
    : createDatabaseFileStore(pool, secrets);
  // Mails and file removals are queued in the transaction of the change that causes them
  // and carried out after its commit (docs/decisions/0011).
  const outbox = createOutbox({ pool, secrets, mailer, files, log: infra.log });
  const fileSweep = createFileSweep({ pool, files, log: infra.log });
  const users = createUsers(pool);
  // Its own few connections: counts are taken inside money transactions (see the limiter).
  const limiter = createRateLimiter(createPool(String(pool.options.connectionString ?? ''), 4));
  // Browsers an account signed in on before: their sign-ins are counted on their own.
  const signInDevices = createSignInDevices(secrets);
  // Not started here: the server starts it (main.ts); without it nothing is cached.
  const listener = createPgListener(String(pool.options.connectionString ?? ''), infra.log);
  const settings = withSettingsCache(pool, listener);
  // Session timeouts are app settings, read from the cache at every look-up.
  const sessions = createSessions(pool, settings);
  const audit = createAuditLog();
  // The account's security activity; modules record on their change's own transaction.
  const securityLog = createSecurityLog({ pool, audit, log: infra.log });
  // Realtime events through PostgreSQL NOTIFY; it LISTENs on `listener` (started by the server).
  const realtime = createRealtimeHub({
    listener,
    pool,
    connectionString: String(pool.options.connectionString ?? ''),
    sessions,
    log: infra.log,
  });
  return {
    clock,
    files,
    outbox,
    fileSweep,
    users,
    limiter,
    signInDevices,
    listener,
    settings,
    sessions,
    audit,
    securityLog,
    realtime,
  };
}

export type Platform = ReturnType<typeof createPlatform>;
