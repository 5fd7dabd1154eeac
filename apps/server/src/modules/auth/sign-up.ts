import { MSG } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { sha256Hex } from '@server/lib/crypto';
import { assertStrongPassword, withHashing } from '@server/lib/password';
import { LIMITS } from '../rate-limit';
import {
  verificationTokensRepository as tokens,
  usersRepository as users,
} from './auth.repository';
import { type AuthContext, committed, queueVerification } from './auth-context';

/**
 * Creates an unverified account and mails its link. An address that already has an
 * account gets a notice instead, and the answer is the same, so the form cannot be
 * used to find out who is a customer.
 */
export async function signUp(
  ctx: AuthContext,
  email: string,
  password: string,
  client: Client,
): Promise<void> {
  // Admitted to the hashing pool before its mail is counted: a busy answer counts nothing.
  const passwordHash = await withHashing('other', async (hashing) => {
    await ctx.limiter.consume(LIMITS.mail(email, client.ip));
    await assertStrongPassword(password, email);
    return hashing.hash(password);
  });
  await committed(ctx, async (tx) => {
    const created = await users.create(tx, { email, passwordHash, verified: false });
    if (created) {
      await queueVerification(ctx, tx, created.id, email);
      return;
    }
    await ctx.outbox.mail(tx, {
      to: email,
      subject: 'Someone tried to sign up to Coffer with your e-mail',
      text: `Somebody tried to create a Coffer account with this address, which already has one.\n\nIf it was you, sign in at ${ctx.publicUrl}/auth. If you forgot your password, reset it with your recovery phrase at ${ctx.publicUrl}/reset-password.\n`,
    });
  });
}

export async function verifyEmail(ctx: AuthContext, token: string): Promise<void> {
  const userId = await tokens.consume(ctx.pool, sha256Hex(token));
  if (!userId) throw new AppError('NOT_FOUND', MSG.verificationLinkInvalid);
  await users.markVerified(ctx.pool, userId);
}

export async function resendVerification(
  ctx: AuthContext,
  email: string,
  client: Client,
): Promise<void> {
  await ctx.limiter.consume(LIMITS.mail(email, client.ip));
  const user = await users.findByEmail(ctx.pool, email);
  if (user && !user.email_verified_at) {
    await committed(ctx, (tx) => queueVerification(ctx, tx, user.id, email));
  }
}
