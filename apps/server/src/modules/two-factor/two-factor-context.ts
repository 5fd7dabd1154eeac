import { AppError } from '@server/lib/app-error';
import type { Secrets } from '@server/lib/crypto';
import { mailTime } from '@server/lib/mail-time';
import { requiresTwoFactor } from '@server/plugins/gate';
import type pg from 'pg';
import type { Client } from '../auth';
import type { Outbox } from '../outbox';
import { LIMITS, type RateLimiter } from '../rate-limit';
import type { RecoveryPhraseService } from '../recovery-phrase';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import type { SessionContext, Sessions } from '../sessions';
import type { StepUp } from '../step-up';
import type { TwoFactorRow } from './two-factor.repository';

/**
 * What the parts of the two-factor service share: its dependencies, given once to
 * `createTwoFactorService`.
 */
export type TwoFactorContext = {
  pool: pg.Pool;
  sessions: Sessions;
  phrases: RecoveryPhraseService;
  limiter: RateLimiter;
  secrets: Secrets;
  outbox: Outbox;
  securityHold: Pick<SecurityHold, 'start' | 'assertClear'>;
  stepUp: Pick<StepUp, 'confirm'>;
  securityLog: Pick<SecurityLog, 'record' | 'recordQuietly'>;
  publicUrl: string;
  /** Why an authenticator code may not verify this session (admins held to passkeys), or null. */
  totpRefusal?: (s: SessionContext) => Promise<string | null>;
};

export const ALREADY_ENABLED = 'Two-factor authentication is already enabled.';
export const NOT_ENABLED = 'Two-factor authentication is not enabled.';
export const NO_PENDING_SETUP =
  'Start the setup again: no two-factor setup is waiting on this device (it was cancelled, or started again on another device).';

/** Staff never use a recovery phrase (README), so their setup neither makes nor asks one. */
export const wantsPhrase = (s: SessionContext) => !s.isAdmin && !s.hasRecoveryPhrase;

/** The owner hears of every change of their second factor, whoever made it. */
export function factorMail(ctx: TwoFactorContext, email: string, on: boolean, client: Client) {
  const settingsUrl = `${ctx.publicUrl}/dashboard/settings`;
  const what = on
    ? 'Two-factor authentication was turned on for your Coffer account: signing in now takes a code from your authenticator app (or a passkey) besides your password.'
    : 'Two-factor authentication was turned off for your Coffer account, and its passkeys were removed. Your account is protected by your password alone until you set it up again.';
  return {
    to: email,
    subject: on
      ? 'Two-factor authentication is on for your Coffer account'
      : 'Two-factor authentication was turned off on your Coffer account',
    text: `${what}\n\nTime: ${mailTime(new Date())}\nAddress: ${client.ip}\n\nIf this was not you, someone is signed in to your account: change your password in Settings (${settingsUrl}), sign out every device you do not recognise and contact support.\n`,
  };
}

/**
 * Inside a security hold a factor is added only where the reset asks for one: an account
 * that must have 2FA and has none now (a reset removed it). Anything else (a setup while one
 * is on, or an optional one) waits like a payout: it would outlast the hold (S10).
 */
export async function assertMayAdd(ctx: TwoFactorContext, s: SessionContext): Promise<void> {
  if (s.twoFactorEnabled || !requiresTwoFactor(s))
    await ctx.securityHold.assertClear(ctx.pool, s.userId);
}

export const backupHash = (ctx: TwoFactorContext, userId: string, code: string): string =>
  ctx.secrets.keyedHash('backup-code', `${userId}:${code}`);

/**
 * A code checked on the 2FA counters: counted before `attempt` runs, refused with `message`
 * when it answers null, released when it is right.
 */
export async function limited<T>(
  ctx: TwoFactorContext,
  s: SessionContext,
  client: Client,
  attempt: () => Promise<T | null>,
  message: string,
): Promise<T> {
  const limits = LIMITS.twoFactor(s.userId, client.ip);
  const counted = await ctx.limiter.consume(limits);
  const result = await attempt();
  if (result === null) throw new AppError('INVALID_CODE', message);
  await counted.release();
  // A right code ends the account's count, so earlier typos don't lock the next device.
  await ctx.limiter.clear(limits.slice(0, 1).map((l) => l.key));
  return result;
}

/**
 * The pending setup as `s` may see it: only the session that started it, and only while
 * 2FA is off. Its phrase only for a customer who has none yet (staff never use one, and
 * one made meanwhile on the Secret Combination page is the account's phrase instead).
 */
export function pendingOf(ctx: TwoFactorContext, row: TwoFactorRow, s: SessionContext) {
  if (row.secret_encrypted || row.pending_session_id !== s.sessionId) return null;
  if (!row.pending_secret_encrypted || !row.pending_backup_codes_encrypted) return null;
  const phrase =
    wantsPhrase(s) && row.pending_phrase_encrypted && row.pending_phrase_check
      ? {
          words: ctx.secrets.decrypt(row.pending_phrase_encrypted),
          positions: row.pending_phrase_check,
        }
      : null;
  return {
    secretEncrypted: row.pending_secret_encrypted,
    secret: ctx.secrets.decrypt(row.pending_secret_encrypted),
    backupCodes: JSON.parse(ctx.secrets.decrypt(row.pending_backup_codes_encrypted)) as string[],
    phrase,
  };
}
