import { MSG, SIGN_IN_FACTORS } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { DUMMY_PASSWORD_HASH, needsRehash, withHashing } from '@server/lib/password';
import { LIMITS } from '../rate-limit';
import { usersRepository as users } from './auth.repository';
import type { AuthContext } from './auth-context';

/**
 * Checks the password and opens a new session; returns its token. `deviceCookie`: the
 * browser's device cookie, if any (a known device is counted on its own, and hashed first).
 */
export async function signIn(
  ctx: AuthContext,
  email: string,
  password: string,
  client: Client,
  deviceCookie?: string,
): Promise<string> {
  const device = ctx.signInDevices.recognise(deviceCookie, email);
  const limits = LIMITS.signIn(email, client.ip, device);
  // Admitted to the hashing pool first: under a flood the answer is BUSY at once, with
  // nothing counted or read, and the admitted hold no connection while they wait.
  return withHashing(device ? 'known-device' : 'other', async (hashing) => {
    const attempt = await ctx.limiter.consume(limits);
    const user = await users.findByEmail(ctx.pool, email);
    // Hash even for an unknown address, so the answer takes as long either way.
    const ok = await hashing.verify(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
    // A frozen account (or one waiting for a new password after its freeze) answers the
    // same for a right or a wrong password, after the same hashing, and the attempt stays
    // counted either way: neither the answer, its time nor the limit tells one from the other.
    const refusal = user ? await ctx.securityHold.signInRefusal(user.id) : null;
    if (user && refusal) {
      await ctx.securityLog.recordQuietly({
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
        await ctx.securityLog.recordQuietly({ userId: user.id, kind: 'sign-in-failed', client });
      }
      throw new AppError('INVALID_CREDENTIALS', MSG.invalidCredentials);
    }
    await attempt.release();
    if (!user.email_verified_at) throw new AppError('EMAIL_NOT_VERIFIED', MSG.emailNotVerified);
    // A hash from before scrypt's cost went up is redone now that the password is at hand.
    if (needsRehash(user.password_hash)) {
      await users.upgradePasswordHash(
        ctx.pool,
        user.id,
        user.password_hash,
        await hashing.hash(password),
      );
    }
    await ctx.limiter.clear(limits.slice(0, 1).map((l) => l.key));
    await users.recordLogin(ctx.pool, user.id);
    const token = await ctx.sessions.create({
      userId: user.id,
      twoFactorVerified: false,
      ip: client.ip,
      userAgent: client.userAgent,
    });
    // The session stands without its log entry: a sign-in is never refused for want of one.
    // With 2FA on, the sign-in is logged once the second factor passed, naming it; until
    // then the log says the password was right (someone may hold it).
    await ctx.securityLog.recordQuietly(
      (await users.twoFactorEnabled(ctx.pool, user.id))
        ? { userId: user.id, kind: 'sign-in-password-accepted', client }
        : { userId: user.id, kind: 'sign-in', client, detail: SIGN_IN_FACTORS.password },
    );
    return token;
  });
}

/** The real password only, every time (product.md S3). */
export async function checkPassword(
  ctx: AuthContext,
  userId: string,
  password: string,
  client: Client,
): Promise<void> {
  await withHashing('other', async (hashing) => {
    const attempt = await ctx.limiter.consume(LIMITS.password(userId, client.ip));
    const user = await users.findById(ctx.pool, userId);
    if (!user || !(await hashing.verify(password, user.password_hash))) {
      throw new AppError('INVALID_CREDENTIALS', MSG.passwordIncorrect);
    }
    await attempt.release();
  });
}
