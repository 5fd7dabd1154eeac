import type { TPasskeyAssertion } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import type pg from 'pg';
import type { SessionContext } from '../sessions';
import { type PasskeyRow, passkeysRepository as repo } from './passkeys.repository';
import { PASSKEY_MSG, type PasskeysContext } from './passkeys-context';

/**
 * Checks an assertion against the session's challenge and the user's own credential, on
 * the caller's transaction: the challenge is used up and the counter moved forward only
 * if that transaction commits. Throws on any refusal.
 */
export async function acceptAssertion(
  ctx: PasskeysContext,
  client: pg.PoolClient,
  s: Pick<SessionContext, 'sessionId' | 'userId'>,
  assertion: TPasskeyAssertion,
): Promise<PasskeyRow> {
  const challenge = await repo.takeChallenge(client, s.sessionId, 'assert');
  if (!challenge) throw new AppError('INVALID_CODE', PASSKEY_MSG.staleChallenge);
  const row = await repo.findForUpdate(client, s.userId, assertion.id);
  if (!row) throw new AppError('INVALID_CODE', PASSKEY_MSG.notYours);
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: ctx.origin,
      expectedRPID: ctx.rpID,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
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
  await repo.recordUse(client, row.id, result.authenticationInfo.newCounter);
  return row;
}
