import { randomInt } from 'node:crypto';
import { BACKUP_CODE_COUNT, BACKUP_CODE_LENGTH } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { newTotpSecret, otpauthUrl } from '@server/lib/totp';
import type { SessionContext } from '../sessions';
import { twoFactorRepository as repo } from './two-factor.repository';
import {
  ALREADY_ENABLED,
  assertMayAdd,
  pendingOf,
  type TwoFactorContext,
  wantsPhrase,
} from './two-factor-context';

// No 0/O or 1/I: codes are read off paper.
const BACKUP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newBackupCode(): string {
  let code = '';
  for (let i = 0; i < BACKUP_CODE_LENGTH; i++)
    code += BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)];
  return code;
}

/**
 * The pending setup of this session: the secret, the backup codes and (for a customer
 * without one) the new recovery phrase with the positions of its words to type back.
 * Made on the first call and shown again, unchanged, on every later call of the same
 * session until it is confirmed or cancelled, so a reload changes nothing. Another
 * session (someone else holding the password, say) never sees it: its call starts a
 * setup of its own, which replaces this one.
 */
export async function setUpTwoFactor(ctx: TwoFactorContext, s: SessionContext) {
  await assertMayAdd(ctx, s);
  if (s.twoFactorEnabled) throw new AppError('CONFLICT', ALREADY_ENABLED);
  const phrase = wantsPhrase(s) ? ctx.phrases.generate() : null;
  const row = await repo.startPending(ctx.pool, s.userId, s.sessionId, {
    secretEncrypted: ctx.secrets.encrypt(newTotpSecret()),
    backupCodesEncrypted: ctx.secrets.encrypt(
      JSON.stringify(Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode)),
    ),
    phraseEncrypted: phrase === null ? null : ctx.secrets.encrypt(phrase),
    phraseCheck: phrase === null ? null : ctx.phrases.pickCheckPositions(),
  });
  const pending = row && pendingOf(ctx, row, s);
  // Turned on in parallel (by this session's own enable, which the session read missed).
  if (!pending) throw new AppError('CONFLICT', ALREADY_ENABLED);
  return {
    otpauthUrl: otpauthUrl(pending.secret, s.email),
    secret: pending.secret,
    backupCodes: pending.backupCodes,
    seedPhrase: pending.phrase?.words ?? null,
    phraseCheck: pending.phrase?.positions ?? null,
  };
}

/** Forgets the pending setup: the next setup makes a new secret, new codes and phrase. */
export async function cancelSetup(ctx: TwoFactorContext, s: SessionContext): Promise<void> {
  if (s.twoFactorEnabled)
    throw new AppError('CONFLICT', 'Two-factor authentication is on: there is no setup to cancel.');
  await repo.discardPending(ctx.pool, s.userId);
}
