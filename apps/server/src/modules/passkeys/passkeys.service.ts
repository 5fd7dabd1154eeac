import type { TPasskey, TPasskeyAssertion, TPasskeyRegisterRequest, TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { mailTime } from '@server/lib/mail-time';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type pg from 'pg';
import type { Client } from '../auth';
import type { Outbox } from '../outbox';
import { LIMITS, type RateLimiter } from '../rate-limit';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import type { SessionContext, Sessions } from '../sessions';
import type { StepUp } from '../step-up';
import type { PasskeyRow, PasskeysRepository } from './passkeys.repository';

type Deps = {
  pool: pg.Pool;
  repo: PasskeysRepository;
  sessions: Sessions;
  limiter: RateLimiter;
  outbox: Outbox;
  settings: { all(client?: pg.PoolClient): Promise<Map<string, string>> };
  securityHold: Pick<SecurityHold, 'assertClear'>;
  stepUp: Pick<StepUp, 'confirm'>;
  securityLog: Pick<SecurityLog, 'record' | 'recordQuietly'>;
  publicUrl: string;
};

/** How long the browser has to answer a ceremony: WebAuthn's own default timeout is 5 minutes. */
const CHALLENGE_SECONDS = 300;

export const PASSKEY_MSG = {
  notVerified: 'The passkey could not be verified. Please try again.',
  staleChallenge: 'That passkey request has expired or was already used. Please try again.',
  notYours: 'This passkey is not registered to your account.',
  needsTwoFactor:
    'Turn on two-factor authentication first: a passkey is a second factor beside your authenticator app.',
  adminsUsePasskey:
    'Admins must confirm with a passkey on this installation: authenticator codes are not accepted.',
  lastAdminPasskey:
    'Admins must sign in with a passkey on this installation: add another passkey before removing your last one.',
  alreadyRegistered: 'This passkey is already registered.',
  unknown: 'Unknown passkey.',
} as const;

function present(row: PasskeyRow): TPasskey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}

/** The user id as the 16 bytes WebAuthn keeps as the credential's user handle. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll('-', ''), 'hex'));
}

export function createPasskeysService(d: Deps) {
  // The relying party is the installation's public address: a passkey made for it works only
  // there, and an answer signed for any other origin is refused.
  const publicUrl = new URL(d.publicUrl);
  const rpID = publicUrl.hostname;
  const origin = publicUrl.origin;
  const settingsUrl = `${d.publicUrl}/dashboard/settings`;

  async function adminsMustUsePasskey(
    s: Pick<SessionContext, 'isAdmin'>,
    client?: pg.PoolClient,
  ): Promise<boolean> {
    if (!s.isAdmin) return false;
    return (await d.settings.all(client)).get('admins_require_passkey') === 'true';
  }

  /**
   * A passkey added inside a security hold would outlast the hold: it waits (S10), from the
   * registration options on. The one exception is the factor a reset asks for: the first
   * passkey of a user held to passkeys (`admins_require_passkey`), whose authenticator code
   * cannot sign them in (every reset removes all passkeys). Anyone else already signs in with
   * the authenticator the reset made them set up, so a passkey would be a second factor
   * beyond it: an attacker who used the phrase must not gain one.
   */
  async function assertMayAdd(s: SessionContext) {
    const first = (await d.repo.countForUser(s.userId)) === 0;
    if (!first || !(await adminsMustUsePasskey(s)))
      await d.securityHold.assertClear(d.pool, s.userId);
  }

  function requireTwoFactorOn(s: SessionContext) {
    if (!s.twoFactorEnabled) throw new AppError('CONFLICT', PASSKEY_MSG.needsTwoFactor);
  }

  /**
   * Checks an assertion against the session's challenge and the user's own credential, on
   * the caller's transaction: the challenge is used up and the counter moved forward only
   * if that transaction commits. Throws on any refusal.
   */
  async function acceptAssertion(
    client: pg.PoolClient,
    s: Pick<SessionContext, 'sessionId' | 'userId'>,
    assertion: TPasskeyAssertion,
  ): Promise<PasskeyRow> {
    const challenge = await d.repo.takeChallenge(client, s.sessionId, 'assert');
    if (!challenge) throw new AppError('INVALID_CODE', PASSKEY_MSG.staleChallenge);
    const row = await d.repo.findForUpdate(client, s.userId, assertion.id);
    if (!row) throw new AppError('INVALID_CODE', PASSKEY_MSG.notYours);
    let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      result = await verifyAuthenticationResponse({
        response: assertion,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: row.credentialId,
          publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
          counter: row.counter,
        },
        requireUserVerification: false,
      });
    } catch {
      // Wrong origin or relying party, a bad signature, a counter that went backwards (a
      // cloned authenticator): one answer for all, the details are no help to an attacker.
      throw new AppError('INVALID_CODE', PASSKEY_MSG.notVerified);
    }
    if (!result.verified) throw new AppError('INVALID_CODE', PASSKEY_MSG.notVerified);
    await d.repo.recordUse(client, row.id, result.authenticationInfo.newCounter);
    return row;
  }

  /** Counted like a 2FA code (the same counters): only a wrong answer adds up. */
  async function limited<T>(
    s: SessionContext,
    client: Client,
    attempt: () => Promise<T>,
  ): Promise<T> {
    const limits = LIMITS.twoFactor(s.userId, client.ip);
    const counted = await d.limiter.consume(limits);
    const result = await attempt();
    await counted.release();
    return result;
  }

  return {
    acceptAssertion,

    /** Whether an authenticator code may verify this session (decision 0014). */
    /** Inside a transaction (a step-up), the setting is read on its client. */
    async totpRefusal(
      s: Pick<SessionContext, 'isAdmin'>,
      client?: pg.PoolClient,
    ): Promise<string | null> {
      return (await adminsMustUsePasskey(s, client)) ? PASSKEY_MSG.adminsUsePasskey : null;
    },

    async list(s: SessionContext): Promise<TPasskey[]> {
      return (await d.repo.listForUser(s.userId)).map(present);
    },

    async signInStatus(s: SessionContext) {
      return { available: s.twoFactorEnabled && (await d.repo.countForUser(s.userId)) > 0 };
    },

    async registrationOptions(s: SessionContext) {
      requireTwoFactorOn(s);
      await assertMayAdd(s);
      const existing = await d.repo.listForUser(s.userId);
      const options = await generateRegistrationOptions({
        rpName: 'Coffer',
        rpID,
        userName: s.email,
        userID: userHandle(s.userId),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        timeout: CHALLENGE_SECONDS * 1000,
      });
      await d.repo.saveChallenge(s.sessionId, 'register', options.challenge, CHALLENGE_SECONDS);
      const json: Record<string, unknown> = { ...options };
      return json;
    },

    async register(
      s: SessionContext,
      input: TPasskeyRegisterRequest,
      client: Client,
    ): Promise<TPasskey> {
      requireTwoFactorOn(s);
      await assertMayAdd(s);
      const row = await withTransaction(d.pool, async (tx) => {
        const challenge = await d.repo.takeChallenge(tx, s.sessionId, 'register');
        if (!challenge) throw new AppError('CONFLICT', PASSKEY_MSG.staleChallenge);
        let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
        try {
          result = await verifyRegistrationResponse({
            response: input.credential,
            expectedChallenge: challenge,
            expectedOrigin: origin,
            expectedRPID: rpID,
            requireUserVerification: false,
          });
        } catch {
          throw new AppError('VALIDATION_FAILED', PASSKEY_MSG.notVerified);
        }
        if (!result.verified) throw new AppError('VALIDATION_FAILED', PASSKEY_MSG.notVerified);
        const { credential } = result.registrationInfo;
        const saved = await d.repo.insert(tx, {
          userId: s.userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? input.credential.response.transports ?? [],
          name: input.name,
        });
        if (!saved) throw new AppError('CONFLICT', PASSKEY_MSG.alreadyRegistered);
        await d.securityLog.record(tx, {
          userId: s.userId,
          kind: 'passkey-added',
          client,
          detail: saved.name,
        });
        await d.outbox.mail(tx, {
          to: s.email,
          subject: 'A passkey was added to your Coffer account',
          text: `A passkey named "${saved.name}" was added to your Coffer account. It can now be used as your second factor when you sign in.\n\nTime: ${mailTime(saved.createdAt)}\nAddress: ${client.ip}\n\nIf this was not you, someone is signed in to your account: remove the passkey in Settings (${settingsUrl}), change your password, sign out every device you do not recognise and contact support.\n`,
        });
        return saved;
      });
      await d.outbox.deliver();
      return present(row);
    },

    async rename(s: SessionContext, id: string, name: string): Promise<TPasskey> {
      const row = await d.repo.rename(s.userId, id, name);
      if (!row) throw new AppError('NOT_FOUND', PASSKEY_MSG.unknown);
      return present(row);
    },

    /** Options for signing with one of the user's passkeys: at sign-in, or to confirm a removal. */
    async assertionOptions(s: SessionContext) {
      const passkeys = await d.repo.listForUser(s.userId);
      if (passkeys.length === 0)
        throw new AppError('CONFLICT', 'No passkey is registered to this account.');
      const options = await generateAuthenticationOptions({
        rpID,
        allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
        userVerification: 'preferred',
        timeout: CHALLENGE_SECONDS * 1000,
      });
      await d.repo.saveChallenge(s.sessionId, 'assert', options.challenge, CHALLENGE_SECONDS);
      const json: Record<string, unknown> = { ...options };
      return json;
    },

    /** Sign-in verification with a passkey: on success the session passes 2FA, as with a code. */
    async verifySignIn(
      s: SessionContext,
      assertion: TPasskeyAssertion,
      client: Client,
    ): Promise<string> {
      if (!s.twoFactorEnabled)
        throw new AppError('CONFLICT', 'Two-factor authentication is not enabled.');
      const limits = LIMITS.twoFactor(s.userId, client.ip);
      await limited(s, client, () =>
        withTransaction(d.pool, (tx) => acceptAssertion(tx, s, assertion)),
      ).catch(async (err: unknown) => {
        // A refused passkey after the right password: someone may hold the password.
        if (err instanceof AppError && err.code === 'INVALID_CODE') {
          await d.securityLog.recordQuietly({
            userId: s.userId,
            kind: 'two-factor-failed',
            client,
            detail: 'Passkey',
          });
        }
        throw err;
      });
      // A right answer ends the account's count, so earlier typos don't lock the next device.
      await d.limiter.clear(limits.slice(0, 1).map((l) => l.key));
      return d.sessions.rotateAfterTwoFactor(s.sessionId);
    },

    /**
     * Removes a passkey with a fresh second factor (step-up: a code, a backup code or a
     * passkey's answer), used up in the same transaction as the removal and its mail.
     */
    async remove(s: SessionContext, id: string, proof: TStepUp, client: Client): Promise<void> {
      const target = await d.repo.findById(s.userId, id);
      if (!target) throw new AppError('NOT_FOUND', PASSKEY_MSG.unknown);
      await d.securityHold.assertClear(d.pool, s.userId);
      // The last factor that can still sign this admin in is not removed.
      if ((await adminsMustUsePasskey(s)) && (await d.repo.countForUser(s.userId)) <= 1)
        throw new AppError('CONFLICT', PASSKEY_MSG.lastAdminPasskey);
      await withTransaction(d.pool, async (tx) => {
        await d.stepUp.confirm(tx, s, proof, client);
        if (!(await d.repo.remove(tx, s.userId, id)))
          throw new AppError('NOT_FOUND', PASSKEY_MSG.unknown);
        await d.securityLog.record(tx, {
          userId: s.userId,
          kind: 'passkey-removed',
          client,
          detail: target.name,
        });
        await d.outbox.mail(tx, {
          to: s.email,
          subject: 'A passkey was removed from your Coffer account',
          text: `The passkey named "${target.name}" was removed from your Coffer account and can no longer be used to sign in.\n\nTime: ${mailTime(new Date())}\nAddress: ${client.ip}\n\nIf this was not you, someone is signed in to your account: change your password in Settings (${settingsUrl}), sign out every device you do not recognise and contact support.\n`,
        });
      });
      await d.outbox.deliver();
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
