import { MSG } from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { randomToken, sha256Hex } from '@server/lib/crypto';
import {
  assertStrongPassword,
  DUMMY_PASSWORD_HASH,
  hashPassword,
  needsRehash,
  withHashing,
} from '@server/lib/password';
import type pg from 'pg';
import type { Outbox } from '../outbox';
import { LIMITS, type RateLimiter, type SignInDevices } from '../rate-limit';
import type { RecoveryPhraseService } from '../recovery-phrase';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import { endSessions, type Sessions } from '../sessions';
import {
  authRepositoriesOn,
  type createUsersRepository,
  type createVerificationTokensRepository,
} from './auth.repository';

type Deps = {
  pool: pg.Pool;
  users: ReturnType<typeof createUsersRepository>;
  tokens: ReturnType<typeof createVerificationTokensRepository>;
  sessions: Sessions;
  phrases: RecoveryPhraseService;
  limiter: RateLimiter;
  signInDevices: Pick<SignInDevices, 'recognise'>;
  outbox: Outbox;
  securityHold: Pick<SecurityHold, 'start' | 'signInRefusal'>;
  securityLog: Pick<SecurityLog, 'record' | 'recordQuietly'>;
  publicUrl: string;
};

/** The auth repositories and the connection of one open transaction. */
type AuthTx = ReturnType<typeof authRepositoriesOn> & { client: TxClient };

const VERIFICATION_TTL_MS = 24 * 3600 * 1000;

export type { Client };

export function createAuthService(d: Deps) {
  /**
   * Runs `fn` in one transaction with the auth repositories on it; once committed, the mails
   * it queued are delivered before the caller answers (the outbox job retries failures).
   */
  async function committed<T>(fn: (tx: AuthTx) => Promise<T>): Promise<T> {
    const result = await withTransaction(d.pool, (client) =>
      fn({ ...authRepositoriesOn(client), client }),
    );
    await d.outbox.deliver();
    return result;
  }

  /**
   * A new verification token and its mail, in the caller's transaction; the links mailed
   * before stop working, so only the newest mail can verify the account.
   */
  async function queueVerification(tx: AuthTx, userId: string, email: string) {
    await tx.tokens.revokeUnused(userId);
    const token = randomToken();
    await tx.tokens.create(userId, sha256Hex(token), new Date(Date.now() + VERIFICATION_TTL_MS));
    const link = `${d.publicUrl}/verify-email?token=${token}`;
    await d.outbox.mail(tx.client, {
      to: email,
      subject: 'Confirm your Coffer account',
      text: `Welcome to Coffer.\n\nConfirm your e-mail address to finish creating your account:\n\n${link}\n\nThe link works for 24 hours. If you did not sign up, ignore this message.\n`,
    });
  }

  return {
    /**
     * Creates an unverified account and mails its link. An address that already has an
     * account gets a notice instead, and the answer is the same, so the form cannot be
     * used to find out who is a customer.
     */
    async signUp(email: string, password: string, client: Client): Promise<void> {
      // Admitted to the hashing pool before its mail is counted: a busy answer counts nothing.
      const passwordHash = await withHashing('other', async (hashing) => {
        await d.limiter.consume(LIMITS.mail(email, client.ip));
        await assertStrongPassword(password, email);
        return hashing.hash(password);
      });
      await committed(async (tx) => {
        const created = await tx.users.create({ email, passwordHash, verified: false }, tx.db);
        if (created) {
          await queueVerification(tx, created.id, email);
          return;
        }
        await d.outbox.mail(tx.client, {
          to: email,
          subject: 'Someone tried to sign up to Coffer with your e-mail',
          text: `Somebody tried to create a Coffer account with this address, which already has one.\n\nIf it was you, sign in at ${d.publicUrl}/auth. If you forgot your password, reset it with your recovery phrase at ${d.publicUrl}/reset-password.\n`,
        });
      });
    },

    async verifyEmail(token: string): Promise<void> {
      const userId = await d.tokens.consume(sha256Hex(token));
      if (!userId) throw new AppError('NOT_FOUND', MSG.verificationLinkInvalid);
      await d.users.markVerified(userId);
    },

    async resendVerification(email: string, client: Client): Promise<void> {
      await d.limiter.consume(LIMITS.mail(email, client.ip));
      const user = await d.users.findByEmail(email);
      if (user && !user.emailVerifiedAt) {
        await committed((tx) => queueVerification(tx, user.id, email));
      }
    },

    /**
     * Checks the password and opens a new session; returns its token. `deviceCookie`: the
     * browser's device cookie, if any (a known device is counted on its own, and hashed first).
     */
    async signIn(
      email: string,
      password: string,
      client: Client,
      deviceCookie?: string,
    ): Promise<string> {
      const device = d.signInDevices.recognise(deviceCookie, email);
      const limits = LIMITS.signIn(email, client.ip, device);
      // Admitted to the hashing pool first: under a flood the answer is BUSY at once, with
      // nothing counted or read, and the admitted hold no connection while they wait.
      return withHashing(device ? 'known-device' : 'other', async (hashing) => {
        const attempt = await d.limiter.consume(limits);
        const user = await d.users.findByEmail(email);
        // Hash even for an unknown address, so the answer takes as long either way.
        const ok = await hashing.verify(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
        // A frozen account (or one waiting for a new password after its freeze) answers the
        // same for a right or a wrong password, after the same hashing, and the attempt stays
        // counted either way: neither the answer, its time nor the limit tells one from the other.
        const refusal = user ? await d.securityHold.signInRefusal(user.id) : null;
        if (user && refusal) {
          await d.securityLog.recordQuietly({
            userId: user.id,
            kind: 'sign-in-refused-frozen',
            client,
            // For staff's review only: nobody can read the log of a frozen account but them.
            detail: ok ? 'The password was right' : 'The password was wrong',
          });
          throw new AppError('ACCOUNT_FROZEN', refusal);
        }
        if (!user || !ok) {
          // Only an existing account has a log to tell its owner; the answer is the same.
          if (user) {
            await d.securityLog.recordQuietly({ userId: user.id, kind: 'sign-in-failed', client });
          }
          throw new AppError('INVALID_CREDENTIALS', MSG.invalidCredentials);
        }
        await attempt.release();
        if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED', MSG.emailNotVerified);
        // A hash from before scrypt's cost went up is redone now that the password is at hand.
        if (needsRehash(user.passwordHash)) {
          await d.users.upgradePasswordHash(
            user.id,
            user.passwordHash,
            await hashing.hash(password),
          );
        }
        await d.limiter.clear(limits.slice(0, 1).map((l) => l.key));
        await d.users.recordLogin(user.id);
        const token = await d.sessions.create({
          userId: user.id,
          twoFactorVerified: false,
          ip: client.ip,
          userAgent: client.userAgent,
        });
        // The session stands without its log entry: a sign-in is never refused for want of one.
        await d.securityLog.recordQuietly({ userId: user.id, kind: 'sign-in', client });
        return token;
      });
    },

    /** The real password only, every time (product.md S3). */
    async checkPassword(userId: string, password: string, client: Client): Promise<void> {
      await withHashing('other', async (hashing) => {
        const attempt = await d.limiter.consume(LIMITS.password(userId, client.ip));
        const user = await d.users.findById(userId);
        if (!user || !(await hashing.verify(password, user.passwordHash))) {
          throw new AppError('INVALID_CREDENTIALS', MSG.passwordIncorrect);
        }
        await attempt.release();
      });
    },

    /** Password reset with the recovery phrase: every session of the account ends. */
    async resetPassword(phrase: string, newPassword: string, client: Client): Promise<void> {
      const attempt = await d.limiter.consume(LIMITS.passwordReset(client.ip));
      const userId = await d.phrases.findUserByPhrase(phrase);
      const user = userId ? await d.users.findById(userId) : null;
      // Staff are never restored by a phrase alone: another admin does it, audited. A staff
      // phrase is answered as a wrong one, and counted as one, so that this public form does
      // not tell whoever holds a phrase that it opens a staff account.
      if (!user || (await d.users.isAdmin(user.id))) {
        throw new AppError('INVALID_RECOVERY_PHRASE', MSG.invalidRecoveryPhrase);
      }
      await attempt.release();
      // A frozen account is not recovered by the phrase either (it may be what was stolen):
      // staff review it, and then the owner sets a new password from the mailed link.
      const refusal = await d.securityHold.signInRefusal(user.id);
      if (refusal) throw new AppError('ACCOUNT_FROZEN', refusal);
      await assertStrongPassword(newPassword, user.email);
      const passwordHash = await hashPassword(newPassword);
      // The new password, the sign-out everywhere and the notice commit together.
      await committed(async (tx) => {
        await tx.users.setPassword(user.id, passwordHash);
        await endSessions(tx.client, user.id);
        // The phrase is burnt (a new one must be made) and a security hold starts: its mail
        // says what happened, from where, and carries the "This wasn't me" link.
        await d.phrases.burn(tx.client, user.id);
        // Logged before the hold it causes, so the newest-first list reads hold, then reset.
        await d.securityLog.record(tx.client, { userId: user.id, kind: 'password-reset', client });
        await d.securityHold.start(tx.client, {
          userId: user.id,
          email: user.email,
          event: 'password-reset',
          from: client,
        });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
