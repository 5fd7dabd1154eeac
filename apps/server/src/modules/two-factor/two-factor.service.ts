import { randomInt } from 'node:crypto';
import {
  BACKUP_CODE_COUNT,
  BACKUP_CODE_LENGTH,
  MSG,
  type TStepUp,
  type TTwoFactorEnableRequest,
  type TTwoFactorVerifyRequest,
} from '@coffer/shared';
import { createDbOn } from '@server/db/client';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Secrets } from '@server/lib/crypto';
import { mailTime } from '@server/lib/mail-time';
import { matchTotpStep, newTotpSecret, otpauthUrl } from '@server/lib/totp';
import { requiresTwoFactor } from '@server/plugins/gate';
import type pg from 'pg';
import type { Client } from '../auth';
import type { Outbox } from '../outbox';
import { LIMITS, type RateLimiter } from '../rate-limit';
import type { RecoveryPhraseService } from '../recovery-phrase';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import { endSessions, type SessionContext, type Sessions } from '../sessions';
import type { StepUp } from '../step-up';
import type { TwoFactorRepository } from './two-factor.repository';

type Deps = {
  pool: pg.Pool;
  repo: TwoFactorRepository;
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

// No 0/O or 1/I: codes are read off paper.
const BACKUP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newBackupCode(): string {
  let code = '';
  for (let i = 0; i < BACKUP_CODE_LENGTH; i++)
    code += BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)];
  return code;
}

const ALREADY_ENABLED = 'Two-factor authentication is already enabled.';
const NO_PENDING_SETUP =
  'Start the setup again: no two-factor setup is waiting on this device (it was cancelled, or started again on another device).';

/** Staff never use a recovery phrase (README), so their setup neither makes nor asks one. */
const wantsPhrase = (s: SessionContext) => !s.isAdmin && !s.hasRecoveryPhrase;

type TwoFactorRow = NonNullable<Awaited<ReturnType<TwoFactorRepository['find']>>>;

export function createTwoFactorService(d: Deps) {
  const settingsUrl = `${d.publicUrl}/dashboard/settings`;

  /** The owner hears of every change of their second factor, whoever made it. */
  function factorMail(email: string, on: boolean, client: Client) {
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
  async function assertMayAdd(s: SessionContext) {
    if (s.twoFactorEnabled || !requiresTwoFactor(s))
      await d.securityHold.assertClear(d.pool, s.userId);
  }

  const backupHash = (userId: string, code: string) =>
    d.secrets.keyedHash('backup-code', `${userId}:${code}`);

  async function limited<T>(
    s: SessionContext,
    client: Client,
    attempt: () => Promise<T | null>,
    message: string,
  ): Promise<T> {
    const limits = LIMITS.twoFactor(s.userId, client.ip);
    const counted = await d.limiter.consume(limits);
    const result = await attempt();
    if (result === null) throw new AppError('INVALID_CODE', message);
    await counted.release();
    // A right code ends the account's count, so earlier typos don't lock the next device.
    await d.limiter.clear(limits.slice(0, 1).map((l) => l.key));
    return result;
  }

  /**
   * The pending setup as `s` may see it: only the session that started it, and only while
   * 2FA is off. Its phrase only for a customer who has none yet (staff never use one, and
   * one made meanwhile on the Secret Combination page is the account's phrase instead).
   */
  function pendingOf(row: TwoFactorRow, s: SessionContext) {
    if (row.secretEncrypted || row.pendingSessionId !== s.sessionId) return null;
    if (!row.pendingSecretEncrypted || !row.pendingBackupCodesEncrypted) return null;
    const phrase =
      wantsPhrase(s) && row.pendingPhraseEncrypted && row.pendingPhraseCheck
        ? {
            words: d.secrets.decrypt(row.pendingPhraseEncrypted),
            positions: row.pendingPhraseCheck,
          }
        : null;
    return {
      secret: d.secrets.decrypt(row.pendingSecretEncrypted),
      backupCodes: JSON.parse(d.secrets.decrypt(row.pendingBackupCodesEncrypted)) as string[],
      phrase,
    };
  }

  /** Checks a code against the active secret and uses it up; null when it is wrong or used. */
  async function acceptCode(userId: string, code: string): Promise<true | null> {
    const row = await d.repo.find(userId);
    if (!row?.secretEncrypted) return null;
    const step = matchTotpStep(d.secrets.decrypt(row.secretEncrypted), code);
    if (step === null) return null;
    return (await d.repo.claimStep(userId, step)) ? true : null;
  }

  return {
    async status(userId: string, s: SessionContext) {
      return {
        enabled: s.twoFactorEnabled,
        required: requiresTwoFactor(s),
        backupCodesLeft: s.twoFactorEnabled ? await d.repo.countUnusedBackupCodes(userId) : 0,
      };
    },

    /**
     * The pending setup of this session: the secret, the backup codes and (for a customer
     * without one) the new recovery phrase with the positions of its words to type back.
     * Made on the first call and shown again, unchanged, on every later call of the same
     * session until it is confirmed or cancelled, so a reload changes nothing. Another
     * session (someone else holding the password, say) never sees it: its call starts a
     * setup of its own, which replaces this one.
     */
    async setup(s: SessionContext) {
      await assertMayAdd(s);
      if (s.twoFactorEnabled) throw new AppError('CONFLICT', ALREADY_ENABLED);
      const phrase = wantsPhrase(s) ? d.phrases.generate() : null;
      const row = await d.repo.startPending(s.userId, s.sessionId, {
        secretEncrypted: d.secrets.encrypt(newTotpSecret()),
        backupCodesEncrypted: d.secrets.encrypt(
          JSON.stringify(Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode)),
        ),
        phraseEncrypted: phrase === null ? null : d.secrets.encrypt(phrase),
        phraseCheck: phrase === null ? null : d.phrases.pickCheckPositions(),
      });
      const pending = row && pendingOf(row, s);
      // Turned on in parallel (by this session's own enable, which the session read missed).
      if (!pending) throw new AppError('CONFLICT', ALREADY_ENABLED);
      return {
        otpauthUrl: otpauthUrl(pending.secret, s.email),
        secret: pending.secret,
        backupCodes: pending.backupCodes,
        seedPhrase: pending.phrase?.words ?? null,
        phraseCheck: pending.phrase?.positions ?? null,
      };
    },

    /** Forgets the pending setup: the next setup makes a new secret, new codes and phrase. */
    async cancel(s: SessionContext): Promise<void> {
      if (s.twoFactorEnabled)
        throw new AppError(
          'CONFLICT',
          'Two-factor authentication is on: there is no setup to cancel.',
        );
      await d.repo.discardPending(s.userId);
    },

    /**
     * Confirms this session's pending setup: the words of the new recovery phrase first
     * (when it shows one), then the authenticator code. The session counts as verified and
     * gets a new token; the phrase is stored with the factor, in one commit.
     */
    async enable(
      s: SessionContext,
      input: TTwoFactorEnableRequest,
      client: Client,
    ): Promise<string> {
      await assertMayAdd(s);
      if (s.twoFactorEnabled) throw new AppError('CONFLICT', ALREADY_ENABLED);
      const row = await d.repo.find(s.userId);
      const pending = row && pendingOf(row, s);
      if (!row?.pendingSecretEncrypted || !pending)
        throw new AppError('CONFLICT', NO_PENDING_SETUP);
      const secretEncrypted = row.pendingSecretEncrypted;
      if (pending.phrase) {
        await d.phrases.checkWords({
          userId: s.userId,
          ip: client.ip,
          phrase: pending.phrase.words,
          positions: pending.phrase.positions,
          words: input.phraseWords ?? [],
        });
      }
      const step = await limited(
        s,
        client,
        async () => matchTotpStep(pending.secret, input.code),
        MSG.invalidCode,
      );
      await withTransaction(d.pool, async (tx) => {
        const db = createDbOn(tx);
        const codeHashes = pending.backupCodes.map((c) => backupHash(s.userId, c));
        const sessionId = s.sessionId;
        if (!(await d.repo.enable(db, s.userId, { sessionId, secretEncrypted }, codeHashes, step)))
          throw new AppError('CONFLICT', NO_PENDING_SETUP);
        if (pending.phrase) await d.phrases.adopt(tx, s.userId, pending.phrase.words, client);
        // A new authenticator ends every other session: one that was signed in with only the
        // password (an attacker's, say) must not carry on under the new factor.
        await endSessions(tx, s.userId, s.sessionId);
        await d.securityLog.record(tx, { userId: s.userId, kind: 'two-factor-enabled', client });
        await d.outbox.mail(tx, factorMail(s.email, true, client));
      });
      await d.outbox.deliver();
      return d.sessions.rotateAfterTwoFactor(s.sessionId);
    },

    /** Sign-in verification with an authenticator code or a backup code. */
    async verify(
      s: SessionContext,
      input: TTwoFactorVerifyRequest,
      client: Client,
    ): Promise<string> {
      if (!s.twoFactorEnabled)
        throw new AppError('CONFLICT', 'Two-factor authentication is not enabled.');
      // Before the count: a refusal by policy is no guess and changes nothing.
      const refusal = (await d.totpRefusal?.(s)) ?? null;
      if (refusal) throw new AppError('FORBIDDEN', refusal);
      await limited(
        s,
        client,
        async () =>
          'code' in input
            ? acceptCode(s.userId, input.code)
            : (await d.repo.useBackupCode(s.userId, backupHash(s.userId, input.backupCode)))
              ? true
              : null,
        'code' in input ? MSG.invalidCode : 'Invalid backup code. Please try again.',
      ).catch(async (err: unknown) => {
        // A wrong code after the right password: someone may hold the password.
        if (err instanceof AppError && err.code === 'INVALID_CODE') {
          const detail = 'code' in input ? 'Authenticator code' : 'Backup code';
          await d.securityLog.recordQuietly({
            userId: s.userId,
            kind: 'two-factor-failed',
            client,
            detail,
          });
        }
        throw err;
      });
      return d.sessions.rotateAfterTwoFactor(s.sessionId);
    },

    /** Turns 2FA off with a fresh second factor (step-up), and tells the owner, in one commit. */
    async disable(s: SessionContext, proof: TStepUp, client: Client): Promise<void> {
      if (!s.twoFactorEnabled)
        throw new AppError('CONFLICT', 'Two-factor authentication is not enabled.');
      await d.securityHold.assertClear(d.pool, s.userId);
      await withTransaction(d.pool, async (tx) => {
        await d.stepUp.confirm(tx, s, proof, client);
        await d.repo.disable(s.userId, createDbOn(tx));
        await d.securityLog.record(tx, { userId: s.userId, kind: 'two-factor-disabled', client });
        await d.outbox.mail(tx, factorMail(s.email, false, client));
      });
      await d.outbox.deliver();
    },

    /**
     * The operator's `reset-admin-2fa`, for an admin locked out with no other admin to help:
     * the factor removed and every session ended, on the caller's transaction (which writes
     * the audit row and the mail with it). How many sessions ended.
     */
    async resetForOperator(client: TxClient, userId: string): Promise<number> {
      const tx = createDbOn(client);
      await d.repo.disable(userId, tx);
      return endSessions(client, userId);
    },

    /**
     * Turns 2FA off with the recovery phrase (for a user who lost the authenticator), ends
     * every other session and tells the user by e-mail. The gate then requires a new setup.
     */
    async resetWithPhrase(s: SessionContext, phrase: string, client_: Client): Promise<void> {
      // Staff are never restored by a phrase alone: another admin (or the operator's
      // reset-admin-2fa) does it, audited. Refused before the phrase is even looked at.
      if (s.isAdmin) throw new AppError('FORBIDDEN', MSG.staffNoPhraseRecovery);
      // A second reset inside a hold is a factor change like any other: it waits.
      await d.securityHold.assertClear(d.pool, s.userId);
      const attempt = await d.limiter.consume(LIMITS.phrase(s.userId, client_.ip));
      if (!(await d.phrases.matches(s.userId, phrase))) {
        throw new AppError('INVALID_RECOVERY_PHRASE', MSG.invalidRecoveryPhrase);
      }
      await attempt.release();
      // 2FA off, the other devices signed out and the notice: one commit.
      await withTransaction(d.pool, async (client) => {
        const tx = createDbOn(client);
        await d.repo.disable(s.userId, tx);
        await endSessions(client, s.userId, s.sessionId);
        await d.securityLog.record(client, {
          userId: s.userId,
          kind: 'two-factor-reset',
          client: client_,
        });
        // The phrase is burnt and a security hold starts, with its mail (S10).
        await d.phrases.burn(client, s.userId);
        await d.securityHold.start(client, {
          userId: s.userId,
          email: s.email,
          event: 'two-factor-reset',
          from: client_,
        });
      });
      await d.outbox.deliver();
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
