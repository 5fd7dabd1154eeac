import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Secrets } from './lib/crypto';
import type { Mailer } from './lib/mailer';
import {
  createUsersRepository,
  createVerificationTokensRepository,
} from './modules/auth/auth.repository';
import { createAuthService } from './modules/auth/auth.service';
import { createRateLimiter } from './modules/rate-limit/rate-limiter';
import { createSeedPhrasesRepository } from './modules/recovery-phrase/recovery-phrase.repository';
import { createRecoveryPhraseService } from './modules/recovery-phrase/recovery-phrase.service';
import { createSessionsRepository } from './modules/sessions/sessions.repository';
import { createSettingsRepository } from './modules/settings/settings.repository';
import { createTwoFactorRepository } from './modules/two-factor/two-factor.repository';
import { createTwoFactorService } from './modules/two-factor/two-factor.service';

export type Infra = {
  config: Config;
  pool: pg.Pool;
  db: Db;
  secrets: Secrets;
  mailer: Mailer;
  log: Logger;
};

/** Wires repositories and services once; routes receive what they need from here. */
export function createServices(infra: Infra) {
  const { db, pool, secrets, mailer, config } = infra;
  const users = createUsersRepository(db);
  const sessions = createSessionsRepository(pool);
  const limiter = createRateLimiter(pool);
  const settings = createSettingsRepository(db);
  const phrases = createRecoveryPhraseService({
    phrases: createSeedPhrasesRepository(db),
    secrets,
  });
  const auth = createAuthService({
    users,
    tokens: createVerificationTokensRepository(db),
    sessions,
    phrases,
    limiter,
    mailer,
    publicUrl: config.publicUrl,
  });
  const twoFactor = createTwoFactorService({
    repo: createTwoFactorRepository(db),
    sessions,
    phrases,
    limiter,
    secrets,
    mailer,
    publicUrl: config.publicUrl,
  });
  return { ...infra, users, sessions, limiter, settings, phrases, auth, twoFactor };
}

export type Services = ReturnType<typeof createServices>;
