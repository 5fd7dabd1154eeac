import type {
  TAdminOverview,
  TAdminRecoveryPhrases,
  TAdminTwoFactorState,
  TAdminUserDirectory,
  TAdminUserFigures,
  TAdminUsersResponse,
  TPendingChange,
  TStepUp,
} from '@coffer/shared';
import type { StaffActor } from '../staff-changes';
import { adminOverview } from './admin-overview';
import {
  type Actor,
  type AdminUsersContext,
  type AdminUsersDeps,
  createSummaryCache,
} from './admin-users-context';
import { disableTwoFactor } from './disable-two-factor';
import { directoryOf, figuresOfUsers, listUsers, recoveryPhrasesPage } from './list-users';
import { resetTwoFactor } from './reset-two-factor';
import { setTwoFactorRequired } from './set-two-factor-required';
import { STAFF_TWO_FACTOR_RESET, staffTwoFactorResetKind } from './staff-two-factor-reset';

/**
 * The users screen, its customers' second factors and the dashboard, composed: each use case
 * is its own file taking the shared context (`admin-users-context.ts`).
 */

export { PRICE_FEED_MAX_AGE_SECONDS } from './admin-overview';
export type { Actor } from './admin-users-context';
export { stakingTimeOf } from './user-figures';

export function createAdminUsersService(s: AdminUsersDeps) {
  const ctx: AdminUsersContext = { ...s, summaryOf: createSummaryCache(s.pool) };
  ctx.changes.register(staffTwoFactorResetKind(ctx));
  return {
    directory: (q: string, limit: number): Promise<TAdminUserDirectory> =>
      directoryOf(ctx, q, limit),

    list: (
      q: string,
      page: number,
      pageSize: number,
      fresh = false,
    ): Promise<TAdminUsersResponse> => listUsers(ctx, q, page, pageSize, fresh),

    /** The 5-second poll: wallet figures of the rows on screen. */
    figures: (ids: string[]): Promise<TAdminUserFigures[]> => figuresOfUsers(ctx, ids),

    setRequired: (
      actor: Actor,
      userId: string,
      required: boolean,
      reason: string | null,
      stepUp: TStepUp,
    ): Promise<TAdminTwoFactorState> =>
      setTwoFactorRequired(ctx, actor, userId, required, reason, stepUp),

    reset: (
      actor: Actor,
      userId: string,
      phrase: string,
      stepUp: TStepUp,
    ): Promise<TAdminTwoFactorState> => resetTwoFactor(ctx, actor, userId, phrase, stepUp),

    /** A customer's: done (`state`); a staff member's: proposed for an owner (`pending`). */
    disable: (
      actor: StaffActor,
      userId: string,
      reason: string,
      stepUp: TStepUp,
    ): Promise<{ state: TAdminTwoFactorState } | { pending: TPendingChange }> =>
      disableTwoFactor(ctx, actor, userId, reason, stepUp),

    /** The Staff screen's reset of a staff member's second factor: proposed for another owner. */
    resetStaff: (
      actor: StaffActor,
      userId: string,
      reason: string,
      stepUp: TStepUp,
    ): Promise<TPendingChange> =>
      ctx.changes.propose(actor, STAFF_TWO_FACTOR_RESET, { userId, reason }, stepUp),

    recoveryPhrases: (page: number, pageSize: number): Promise<TAdminRecoveryPhrases> =>
      recoveryPhrasesPage(ctx, page, pageSize),

    /** product.md M5: the dashboard's four tiles from real figures. */
    overview: (): Promise<TAdminOverview> => adminOverview(ctx),
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
