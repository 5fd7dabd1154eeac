import { randomBytes } from 'node:crypto';
import { STAFF_INVITE_LINK_HOURS } from '@coffer/shared';
import { sha256Hex } from '@server/lib/crypto';
import type pg from 'pg';
import { securityHoldRepository as repo } from './security-hold.repository';
import type { SecurityHoldContext } from './security-hold-context';

/**
 * A single-use set-password link for an account, on the caller's transaction: the same
 * `set_password_tokens` the unfreeze review mails (hashed, an earlier link voided), for a
 * staff member invited in the app, whose account has no usable password until they set one
 * at `/set-password`. The caller mails it in the same transaction.
 */
export async function newSetPasswordLink(
  deps: SecurityHoldContext,
  client: pg.PoolClient,
  userId: string,
): Promise<{ link: string; validHours: number }> {
  const token = randomBytes(32).toString('base64url');
  await repo.addSetPasswordToken(client, userId, sha256Hex(token), STAFF_INVITE_LINK_HOURS);
  return {
    link: `${deps.publicUrl}/set-password?token=${token}`,
    validHours: STAFF_INVITE_LINK_HOURS,
  };
}
