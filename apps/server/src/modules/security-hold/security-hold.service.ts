import type { TStepUp } from '@coffer/shared';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import { approveUnfreeze } from './approve-unfreeze';
import { freezeAccount } from './freeze-account';
import { assertClear, assertStaffClear, holdStatus, signInRefusal } from './hold-checks';
import { rejectUnfreeze } from './reject-unfreeze';
import { requestUnfreeze } from './request-unfreeze';
import { type SecurityHoldContext, type StaffActor, unfreezeState } from './security-hold-context';
import { newSetPasswordLink } from './set-password-link';
import { setPasswordWithLink } from './set-password-with-link';
import { type HoldStart, startHold } from './start-hold';

/**
 * The security hold service composed: each use case is its own file taking the shared
 * context (`security-hold-context.ts`).
 */

export { holdActive } from './hold-checks';
export { UNFREEZE_MSG } from './security-hold-context';
export type { HoldEvent } from './start-hold';

/**
 * Security holds (product.md S10): using the recovery phrase, or staff removing a second
 * factor, stops payouts, bank details and factor changes for `security_hold_hours` and,
 * where the phrase was burnt, until a new one exists; the customer is told at once, with
 * a one-click "This wasn't me" link that freezes the account until staff review it.
 */
export function createSecurityHold(deps: SecurityHoldContext) {
  return {
    /**
     * Starts a hold in the caller's transaction and queues the mail that says what happened,
     * from where, until when, with the freeze link. The caller delivers after its commit.
     */
    start: (client: pg.PoolClient, input: HoldStart): Promise<Date> =>
      startHold(deps, client, input),

    signInRefusal: (userId: string): Promise<string | null> => signInRefusal(deps, userId),

    assertClear,

    assertStaffClear,

    /** The customer's own view of their hold, for the screens. */
    status: (userId: string) => holdStatus(deps, userId),

    freeze: (token: string, ip: string): Promise<void> => freezeAccount(deps, token, ip),

    /** Where an account's freeze review stands, for the users screen. */
    unfreezeState: (userId: string) => unfreezeState(deps.pool, userId),

    requestUnfreeze: (actor: StaffActor, userId: string, reason: string, proof: TStepUp) =>
      requestUnfreeze(deps, actor, userId, reason, proof),

    approveUnfreeze: (actor: StaffActor, userId: string, proof: TStepUp) =>
      approveUnfreeze(deps, actor, userId, proof),

    /** An admin (the one who asked, or another) turns the request down: the account stays shut. */
    rejectUnfreeze: (actor: StaffActor, userId: string, reason: string, proof: TStepUp) =>
      rejectUnfreeze(deps, actor, userId, reason, proof),

    setPasswordWithLink: (token: string, newPassword: string, from: Client): Promise<void> =>
      setPasswordWithLink(deps, token, newPassword, from),

    /** A new single-use set-password link (72 hours) on the caller's transaction, for an invited staff member. */
    newSetPasswordLink: (client: pg.PoolClient, userId: string) =>
      newSetPasswordLink(deps, client, userId),
  };
}

export type SecurityHold = ReturnType<typeof createSecurityHold>;
