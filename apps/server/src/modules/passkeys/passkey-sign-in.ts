import { SECOND_FACTOR_NAMES, SIGN_IN_FACTORS, type TPasskeyAssertion } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { LIMITS } from '../rate-limit';
import type { SessionContext } from '../sessions';
import { acceptAssertion } from './accept-assertion';
import { passkeysRepository as repo } from './passkeys.repository';
import { CHALLENGE_SECONDS, type PasskeysContext } from './passkeys-context';

/** Options for signing with one of the user's passkeys: at sign-in, or to confirm a removal. */
export async function assertionOptions(ctx: PasskeysContext, s: SessionContext) {
  const passkeys = await repo.listForUser(ctx.pool, s.userId);
  if (passkeys.length === 0)
    throw new AppError('CONFLICT', 'No passkey is registered to this account.');
  const options = await generateAuthenticationOptions({
    rpID: ctx.rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: p.transports })),
    userVerification: 'preferred',
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await repo.saveChallenge(ctx.pool, s.sessionId, 'assert', options.challenge, CHALLENGE_SECONDS);
  const json: Record<string, unknown> = { ...options };
  return json;
}

/** Counted like a 2FA code (the same counters): only a wrong answer adds up. */
async function limited<T>(
  ctx: PasskeysContext,
  s: SessionContext,
  client: Client,
  attempt: () => Promise<T>,
): Promise<T> {
  const limits = LIMITS.twoFactor(s.userId, client.ip);
  const counted = await ctx.limiter.consume(limits);
  const result = await attempt();
  await counted.release();
  return result;
}

/** Sign-in verification with a passkey: on success the session passes 2FA, as with a code. */
export async function verifySignIn(
  ctx: PasskeysContext,
  s: SessionContext,
  assertion: TPasskeyAssertion,
  client: Client,
): Promise<string> {
  if (!s.twoFactorEnabled)
    throw new AppError('CONFLICT', 'Two-factor authentication is not enabled.');
  const limits = LIMITS.twoFactor(s.userId, client.ip);
  await limited(ctx, s, client, () =>
    withTransaction(ctx.pool, (tx) => acceptAssertion(ctx, tx, s, assertion)),
  ).catch(async (err: unknown) => {
    // A refused passkey after the right password: someone may hold the password.
    if (err instanceof AppError && err.code === 'INVALID_CODE') {
      await ctx.securityLog.recordQuietly({
        userId: s.userId,
        kind: 'two-factor-failed',
        client,
        detail: SECOND_FACTOR_NAMES.passkey,
      });
    }
    throw err;
  });
  // A right answer ends the account's count, so earlier typos don't lock the next device.
  await ctx.limiter.clear(limits.slice(0, 1).map((l) => l.key));
  const token = await ctx.sessions.rotateAfterTwoFactor(s.sessionId);
  await ctx.securityLog.recordQuietly({
    userId: s.userId,
    kind: 'sign-in',
    client,
    detail: SIGN_IN_FACTORS.passkey,
  });
  return token;
}
