import type { TPasskey, TPasskeyRegisterRequest } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { mailTime } from '@server/lib/mail-time';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { SessionContext } from '../sessions';
import { passkeysRepository as repo } from './passkeys.repository';
import {
  adminsMustUsePasskey,
  CHALLENGE_SECONDS,
  PASSKEY_MSG,
  type PasskeysContext,
  present,
} from './passkeys-context';

/** The user id as the 16 bytes WebAuthn keeps as the credential's user handle. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll('-', ''), 'hex'));
}

function requireTwoFactorOn(s: SessionContext) {
  if (!s.twoFactorEnabled) throw new AppError('CONFLICT', PASSKEY_MSG.needsTwoFactor);
}

/**
 * A passkey added inside a security hold would outlast the hold: it waits (S10), from the
 * registration options on. The one exception is the factor a reset asks for: the first
 * passkey of a user held to passkeys (`admins_require_passkey`), whose authenticator code
 * cannot sign them in (every reset removes all passkeys). Anyone else already signs in with
 * the authenticator the reset made them set up, so a passkey would be a second factor
 * beyond it: an attacker who used the phrase must not gain one.
 */
async function assertMayAdd(ctx: PasskeysContext, s: SessionContext) {
  const first = (await repo.countForUser(ctx.pool, s.userId)) === 0;
  if (!first || !(await adminsMustUsePasskey(ctx, s)))
    await ctx.securityHold.assertClear(ctx.pool, s.userId);
}

/** The options of a new passkey's ceremony, its challenge saved for this session. */
export async function registrationOptions(ctx: PasskeysContext, s: SessionContext) {
  requireTwoFactorOn(s);
  await assertMayAdd(ctx, s);
  const existing = await repo.listForUser(ctx.pool, s.userId);
  const options = await generateRegistrationOptions({
    rpName: 'Coffer',
    rpID: ctx.rpID,
    userName: s.email,
    userID: userHandle(s.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await repo.saveChallenge(ctx.pool, s.sessionId, 'register', options.challenge, CHALLENGE_SECONDS);
  const json: Record<string, unknown> = { ...options };
  return json;
}

/** Stores the new passkey answered to this session's challenge, and tells the owner. */
export async function registerPasskey(
  ctx: PasskeysContext,
  s: SessionContext,
  input: TPasskeyRegisterRequest,
  client: Client,
): Promise<TPasskey> {
  requireTwoFactorOn(s);
  await assertMayAdd(ctx, s);
  const row = await withTransaction(ctx.pool, async (tx) => {
    const challenge = await repo.takeChallenge(tx, s.sessionId, 'register');
    if (!challenge) throw new AppError('CONFLICT', PASSKEY_MSG.staleChallenge);
    let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      result = await verifyRegistrationResponse({
        response: input.credential,
        expectedChallenge: challenge,
        expectedOrigin: ctx.origin,
        expectedRPID: ctx.rpID,
        requireUserVerification: false,
      });
    } catch {
      throw new AppError('VALIDATION_FAILED', PASSKEY_MSG.notVerified);
    }
    if (!result.verified) throw new AppError('VALIDATION_FAILED', PASSKEY_MSG.notVerified);
    const { credential } = result.registrationInfo;
    const saved = await repo.insert(tx, {
      userId: s.userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? input.credential.response.transports ?? [],
      name: input.name,
    });
    if (!saved) throw new AppError('CONFLICT', PASSKEY_MSG.alreadyRegistered);
    await ctx.securityLog.record(tx, {
      userId: s.userId,
      kind: 'passkey-added',
      client,
      detail: saved.name,
    });
    await ctx.outbox.mail(tx, {
      to: s.email,
      subject: 'A passkey was added to your Coffer account',
      text: `A passkey named "${saved.name}" was added to your Coffer account. It can now be used as your second factor when you sign in.\n\nTime: ${mailTime(saved.created_at)}\nAddress: ${client.ip}\n\nIf this was not you, someone is signed in to your account: remove the passkey in Settings (${ctx.settingsUrl}), change your password, sign out every device you do not recognise and contact support.\n`,
    });
    return saved;
  });
  await ctx.outbox.deliver();
  return present(row);
}
