import {
  MSG,
  SECOND_FACTOR_NAMES,
  SIGN_IN_FACTORS,
  type TTwoFactorVerifyRequest,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { matchTotpStep } from '@server/lib/totp';
import type { Client } from '../auth';
import type { SessionContext } from '../sessions';
import { twoFactorRepository as repo } from './two-factor.repository';
import { backupHash, limited, NOT_ENABLED, type TwoFactorContext } from './two-factor-context';

/** Checks a code against the active secret and uses it up; null when it is wrong or used. */
async function acceptCode(
  ctx: TwoFactorContext,
  userId: string,
  code: string,
): Promise<true | null> {
  const row = await repo.find(ctx.pool, userId);
  if (!row?.secret_encrypted) return null;
  const step = matchTotpStep(ctx.secrets.decrypt(row.secret_encrypted), code);
  if (step === null) return null;
  return (await repo.claimStep(ctx.pool, userId, step)) ? true : null;
}

/** Uses a backup code up; null when it is unknown or used. */
async function acceptBackupCode(
  ctx: TwoFactorContext,
  userId: string,
  code: string,
): Promise<true | null> {
  return (await repo.useBackupCode(ctx.pool, userId, backupHash(ctx, userId, code))) ? true : null;
}

/** Sign-in verification with an authenticator code or a backup code. */
export async function verifyTwoFactor(
  ctx: TwoFactorContext,
  s: SessionContext,
  input: TTwoFactorVerifyRequest,
  client: Client,
): Promise<string> {
  if (!s.twoFactorEnabled) throw new AppError('CONFLICT', NOT_ENABLED);
  // Before the count: a refusal by policy is no guess and changes nothing.
  const refusal = (await ctx.totpRefusal?.(s)) ?? null;
  if (refusal) throw new AppError('FORBIDDEN', refusal);
  await limited(
    ctx,
    s,
    client,
    () =>
      'code' in input
        ? acceptCode(ctx, s.userId, input.code)
        : acceptBackupCode(ctx, s.userId, input.backupCode),
    'code' in input ? MSG.invalidCode : 'Invalid backup code. Please try again.',
  ).catch(async (err: unknown) => {
    // A wrong code after the right password: someone may hold the password.
    if (err instanceof AppError && err.code === 'INVALID_CODE') {
      const detail = 'code' in input ? SECOND_FACTOR_NAMES.code : SECOND_FACTOR_NAMES.backupCode;
      await ctx.securityLog.recordQuietly({
        userId: s.userId,
        kind: 'two-factor-failed',
        client,
        detail,
      });
    }
    throw err;
  });
  const token = await ctx.sessions.rotateAfterTwoFactor(s.sessionId);
  await ctx.securityLog.recordQuietly({
    userId: s.userId,
    kind: 'sign-in',
    client,
    detail: 'code' in input ? SIGN_IN_FACTORS.code : SIGN_IN_FACTORS.backupCode,
  });
  return token;
}
