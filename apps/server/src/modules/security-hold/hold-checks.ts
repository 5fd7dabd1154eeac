import { FROZEN_MSG } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import { type HoldState, securityHoldRepository as repo } from './security-hold.repository';
import { type SecurityHoldContext, whenText } from './security-hold-context';

/** Whether a hold is on now: before its end, and while the phrase that was used is not replaced. */
export function holdActive(state: HoldState, now = new Date()): boolean {
  if (state.holdUntil === null) return false;
  return state.holdUntil > now || !state.hasPhrase;
}

/**
 * Throws while a freeze or a hold is on: SECURITY_HOLD says until when, in the message and
 * as `holdUntil` (null when only the missing recovery phrase keeps it on).
 */
function refuseWhileHeld(state: HoldState | null, paused: string): void {
  if (!state) return;
  if (state.frozenAt) {
    throw new AppError(
      'ACCOUNT_FROZEN',
      'Your account is frozen until Coffer support has reviewed it with you. Please contact support.',
    );
  }
  if (!holdActive(state)) return;
  const timed = state.holdUntil && state.holdUntil > new Date() ? state.holdUntil : null;
  const until = timed ? ` until ${whenText(timed)}` : '';
  const phrase = state.hasPhrase
    ? ''
    : ' Create a new recovery phrase and confirm it (Secret Combination) to end it once the time has passed.';
  throw new AppError(
    'SECURITY_HOLD',
    `Your account is under a security hold${until}: ${paused}.${phrase}`,
    undefined,
    { holdUntil: timed?.toISOString() ?? null },
  );
}
/**
 * Why nobody may sign in to this account now, or null: frozen, or unfrozen but waiting
 * for its owner's new password. Every way in (the password, the phrase) asks this, and
 * the session look-up treats such an account's sessions as none.
 */
export async function signInRefusal(
  deps: SecurityHoldContext,
  userId: string,
): Promise<string | null> {
  const state = await repo.freezeState(deps.pool, userId);
  if (state?.frozen) return FROZEN_MSG.frozen;
  if (state?.awaitingNewPassword) return FROZEN_MSG.awaitingNewPassword;
  return null;
}

/** Refuses a payout, bank-details or factor change while a hold or a freeze is on. */
export async function assertClear(db: pg.Pool | pg.PoolClient, userId: string): Promise<void> {
  refuseWhileHeld(
    await repo.state(db, userId),
    'withdrawals, bank transfers, bank details and two-factor changes are paused',
  );
}

/**
 * The staff side of the same rule: a held or frozen admin changes nothing (no payout,
 * no balance, no factor, no other account, no setting). The gate calls it before every
 * state-changing admin route, so a route added later is covered without a word.
 */
export async function assertStaffClear(db: pg.Pool | pg.PoolClient, userId: string): Promise<void> {
  refuseWhileHeld(
    await repo.state(db, userId),
    'staff actions that move money, change a factor, a setting or another account are paused; reading still works',
  );
}

/** The customer's own view of their hold, for the screens. */
export async function holdStatus(deps: SecurityHoldContext, userId: string) {
  const state = await repo.state(deps.pool, userId);
  return {
    onHold: state ? holdActive(state) : false,
    holdUntil: state?.holdUntil?.toISOString() ?? null,
    needsNewPhrase: state ? holdActive(state) && !state.hasPhrase : false,
    frozen: state?.frozenAt != null,
  };
}
