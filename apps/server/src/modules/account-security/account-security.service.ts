import {
  MSG_SECURITY,
  type TActiveSession,
  type TChangePasswordRequest,
  type TSecurityEventKind,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type { Secrets } from '@server/lib/crypto';
import { mailTime } from '@server/lib/mail-time';
import { assertStrongPassword, withHashing } from '@server/lib/password';
import type pg from 'pg';
import type { Outbox } from '../outbox';
import { LIMITS, type RateLimiter } from '../rate-limit';
import { endSessions, type SessionContext } from '../sessions';
import type { StepUp } from '../step-up';
import { accountSecurityRepository as repo } from './account-security.repository';
import { deviceLabel } from './device-label';

type Deps = {
  pool: pg.Pool;
  limiter: RateLimiter;
  secrets: Secrets;
  outbox: Outbox;
  /**
   * The security log's `record`, by its shape: the log names devices with this module's
   * `deviceLabel`, so importing it back here would make the two front doors a circle.
   */
  securityLog: {
    record(
      client: pg.PoolClient,
      event: { userId: string; kind: TSecurityEventKind; client: Client; detail: string | null },
    ): Promise<void>;
  };
  stepUp: Pick<StepUp, 'confirm'>;
  /**
   * The security hold's `assertClear`, by its shape (the hold's module reaches this one
   * through the security log): during a hold the password and the other devices stay as
   * they are, so whoever used the phrase cannot lock the owner out (S10).
   */
  securityHold: { assertClear(db: pg.Pool | pg.PoolClient, userId: string): Promise<void> };
  publicUrl: string;
};

export function createAccountSecurityService(d: Deps) {
  const settingsUrl = `${d.publicUrl}/dashboard/settings`;
  const ifNotYou = `If this was not you, change your password at once in Settings, Security (${settingsUrl}), sign out every device you do not recognise there, and contact support. If you can no longer sign in, reset your password with your recovery phrase at ${d.publicUrl}/reset-password.`;

  return {
    async list(s: SessionContext): Promise<TActiveSession[]> {
      const rows = await repo.listSessions(d.pool, s.userId);
      // This device first, then the others by when they were last used.
      const ordered = [
        ...rows.filter((r) => r.id === s.sessionId),
        ...rows.filter((r) => r.id !== s.sessionId),
      ];
      return ordered.map((r) => ({
        id: r.id,
        device: deviceLabel(r.user_agent),
        ip: r.ip,
        signedInAt: r.created_at.toISOString(),
        lastSeenAt: r.last_seen_at.toISOString(),
        current: r.id === s.sessionId,
      }));
    },

    /**
     * Ends one of the user's own sessions; another user's id is as unknown as a made-up one.
     * The security log names the device that was signed out, in the same commit.
     */
    async signOut(s: SessionContext, sessionId: string, client: Client): Promise<void> {
      // Signing this device out is always allowed; another one waits for the hold's end.
      if (sessionId !== s.sessionId) await d.securityHold.assertClear(d.pool, s.userId);
      await withTransaction(d.pool, async (tx) => {
        const ended = (await repo.listSessions(tx, s.userId)).find((r) => r.id === sessionId);
        if (!(await repo.deleteSession(tx, s.userId, sessionId))) {
          throw new AppError('NOT_FOUND', 'This session has already ended.');
        }
        await d.securityLog.record(tx, {
          userId: s.userId,
          kind: 'session-signed-out',
          client,
          detail:
            sessionId === s.sessionId
              ? 'This device'
              : ended
                ? `${deviceLabel(ended.user_agent)}${ended.ip ? `, ${ended.ip}` : ''}`
                : null,
        });
      });
    },

    async signOutOthers(s: SessionContext, client: Client): Promise<number> {
      await d.securityHold.assertClear(d.pool, s.userId);
      return withTransaction(d.pool, async (tx) => {
        const ended = await endSessions(tx, s.userId, s.sessionId);
        // Nothing was signed out, so nothing happened worth a line in the log.
        if (ended > 0) {
          await d.securityLog.record(tx, {
            userId: s.userId,
            kind: 'other-sessions-signed-out',
            client,
            detail: ended === 1 ? '1 device' : `${ended} devices`,
          });
        }
        return ended;
      });
    },

    /**
     * The current password, a fresh second factor and an unguessable new password; then the
     * new hash, the other devices signed out and the notice, in one transaction.
     */
    async changePassword(
      s: SessionContext,
      input: TChangePasswordRequest,
      client: Client,
    ): Promise<void> {
      // Before the password is even looked at: a refusal by policy is no guess.
      await d.securityHold.assertClear(d.pool, s.userId);
      const passwordLimits = LIMITS.password(s.userId, client.ip);
      // Admitted to the hashing pool before the attempt counts: a busy answer counts nothing.
      const { oldHash, newHash } = await withHashing('other', async (hashing) => {
        const attempt = await d.limiter.consume(passwordLimits);
        const oldHash = await repo.passwordHash(d.pool, s.userId);
        if (!oldHash || !(await hashing.verify(input.currentPassword, oldHash))) {
          throw new AppError('VALIDATION_FAILED', MSG_SECURITY.currentPasswordIncorrect);
        }
        await attempt.release();
        await assertStrongPassword(input.newPassword, s.email);
        return { oldHash, newHash: await hashing.hash(input.newPassword) };
      });
      const at = new Date();
      await withTransaction(d.pool, async (tx) => {
        // Without a second factor on the account, the current password is the proof.
        if (s.twoFactorEnabled) await d.stepUp.confirm(tx, s, input.stepUp, client);
        if (!(await repo.replacePasswordHash(tx, s.userId, oldHash, newHash))) {
          throw new AppError('CONFLICT', 'Your password was changed meanwhile. Please try again.');
        }
        const ended = await endSessions(tx, s.userId, s.sessionId);
        await d.securityLog.record(tx, {
          userId: s.userId,
          kind: 'password-changed',
          client,
          detail: ended > 0 ? 'Every other device was signed out' : null,
        });
        await d.outbox.mail(tx, {
          to: s.email,
          subject: 'Your Coffer password was changed',
          text: `The password of your Coffer account was changed${ended > 0 ? ', and every other signed-in device was signed out' : ''}.\n\nTime: ${mailTime(at)}\nDevice: ${deviceLabel(client.userAgent)}\nAddress: ${client.ip}\n\nIf this was you, there is nothing to do.\n\n${ifNotYou}\n`,
        });
      });
      await d.limiter.clear(passwordLimits.slice(0, 1).map((l) => l.key));
      await d.outbox.deliver();
    },

    /**
     * After a sign-in: a mail when it came from a device (browser and system) and address
     * the account has not been seen on. The account's very first sign-in is not news to
     * its owner, so it is only recorded.
     */
    async noticeSignIn(s: SessionContext, client: Client): Promise<void> {
      const device = deviceLabel(client.userAgent);
      const hash = d.secrets.keyedHash('known-device', `${s.userId}\0${device}\0${client.ip}`);
      const at = new Date();
      const mailed = await withTransaction(d.pool, async (tx) => {
        const knownBefore = await repo.hasKnownDevices(tx, s.userId);
        const others = (await repo.listSessions(tx, s.userId)).filter((r) => r.id !== s.sessionId);
        const isNew = await repo.recordDevice(tx, s.userId, hash);
        const seenInSessions = others.some(
          (r) => r.ip === client.ip && deviceLabel(r.user_agent) === device,
        );
        if (!isNew || seenInSessions || (!knownBefore && others.length === 0)) return false;
        await d.outbox.mail(tx, {
          to: s.email,
          subject: 'New sign-in to your Coffer account',
          text: `Your Coffer account was just signed in to from a device or address it has not been used from before.\n\nTime: ${mailTime(at)}\nDevice: ${device}\nAddress: ${client.ip}\n\nIf this was you, there is nothing to do.\n\n${ifNotYou}\n`,
        });
        return true;
      });
      if (mailed) await d.outbox.deliver();
    },
  };
}

export type AccountSecurityService = ReturnType<typeof createAccountSecurityService>;
