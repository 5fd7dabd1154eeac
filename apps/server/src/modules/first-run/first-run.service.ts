import type { TFirstRunResponse } from '@coffer/shared';
import type pg from 'pg';
import { firstRunRepository as repo } from './first-run.repository';

/**
 * The dashboard's first-run checklist: verify the identity, make a first deposit, add a
 * passkey. One small read for all three, and the customer's choice to close it, kept with
 * the account so that it stays closed on every device.
 */
export function createFirstRun(deps: { pool: pg.Pool }) {
  return {
    state: (userId: string): Promise<TFirstRunResponse> => repo.stateOf(deps.pool, userId),

    /** Closes the checklist; answers with the state it now has. */
    async dismiss(userId: string): Promise<TFirstRunResponse> {
      await repo.dismiss(deps.pool, userId);
      return repo.stateOf(deps.pool, userId);
    },
  };
}

export type FirstRun = ReturnType<typeof createFirstRun>;
