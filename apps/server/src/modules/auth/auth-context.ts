import { type TxClient, withTransaction } from '@server/db/tx';
import { randomToken, sha256Hex } from '@server/lib/crypto';
import type pg from 'pg';
import type { Outbox } from '../outbox';
import type { RateLimiter, SignInDevices } from '../rate-limit';
import type { RecoveryPhraseService } from '../recovery-phrase';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import type { Sessions } from '../sessions';
import { verificationTokensRepository as tokens } from './auth.repository';

/**
 * What the parts of the auth service share: its dependencies, given once to
 * `createAuthService`.
 */
export type AuthContext = {
  pool: pg.Pool;
  sessions: Sessions;
  phrases: RecoveryPhraseService;
  limiter: RateLimiter;
  signInDevices: Pick<SignInDevices, 'recognise'>;
  outbox: Outbox;
  securityHold: Pick<SecurityHold, 'start' | 'signInRefusal'>;
  securityLog: Pick<SecurityLog, 'record' | 'recordQuietly'>;
  publicUrl: string;
};

const VERIFICATION_TTL_MS = 24 * 3600 * 1000;

/**
 * Runs `fn` in one transaction; once committed, the mails it queued are delivered before
 * the caller answers (the outbox job retries failures).
 */
export async function committed<T>(
  ctx: AuthContext,
  fn: (client: TxClient) => Promise<T>,
): Promise<T> {
  const result = await withTransaction(ctx.pool, fn);
  await ctx.outbox.deliver();
  return result;
}

/**
 * A new verification token and its mail, in the caller's transaction; the links mailed
 * before stop working, so only the newest mail can verify the account.
 */
export async function queueVerification(
  ctx: AuthContext,
  client: TxClient,
  userId: string,
  email: string,
): Promise<void> {
  await tokens.revokeUnused(client, userId);
  const token = randomToken();
  await tokens.create(client, userId, sha256Hex(token), new Date(Date.now() + VERIFICATION_TTL_MS));
  const link = `${ctx.publicUrl}/verify-email?token=${token}`;
  await ctx.outbox.mail(client, {
    to: email,
    subject: 'Confirm your Coffer account',
    text: `Welcome to Coffer.\n\nConfirm your e-mail address to finish creating your account:\n\n${link}\n\nThe link works for 24 hours. If you did not sign up, ignore this message.\n`,
  });
}
