import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Ledger, WalletRow } from '../ledger';
import { beforeBalanceChange } from './staking-checkpoint';
import type { Clock, StakingContext } from './staking-context';
import { type CreditRun, creditDueCycles } from './staking-credits';
import { type StakingOverview, stakingOverview } from './staking-overview';

export type { Clock } from './staking-context';
export type { CreditRun } from './staking-credits';
export type { StakingOverview, StakingStatus } from './staking-overview';

type Deps = { pool: pg.Pool; ledger: Ledger; clock: Clock; log: Logger };

/**
 * ETH staking (product.md M1, M2): continuous accrual on the ETH actually held,
 * checkpointed by the ledger at every ETH balance change, and credited to the ETH balance
 * as a `staking_reward` transaction at the end of each 24-hour cycle. Composed: the
 * checkpoints, the board and the credit job are each their own file taking the shared
 * context (`staking-context.ts`).
 *
 * Rate changes: each staking row keeps the rate accruing since its last checkpoint. A new
 * setting applies from the first checkpoint at or after the setting's `updated_at`; the
 * credit job checkpoints every staker still on an old rate within a run (a minute), so
 * accrual already shown is never repriced.
 */
export function createStakingService({ pool, ledger, clock, log }: Deps) {
  const ctx: StakingContext = {
    pool,
    ledger,
    clock,
    log,
    checkpointTime: new WeakMap(),
    activeStakers: null,
  };
  return {
    beforeBalanceChange: (client: TxClient, wallet: WalletRow, balanceBefore: bigint) =>
      beforeBalanceChange(ctx, client, wallet, balanceBefore),
    overview: (userId: string): Promise<StakingOverview> => stakingOverview(ctx, userId),
    /**
     * One run of the credit job, as of the service's clock. With several instances only the
     * holder of the job's lock calls it (jobs.ts, lib/job-lock.ts).
     */
    runCreditJob: (): Promise<CreditRun> => creditDueCycles(ctx, clock()),
    /** Credits every cycle that ended by `now`, oldest first per user, each in its own transaction. */
    creditDueCycles: (now: Date): Promise<CreditRun> => creditDueCycles(ctx, now),
  };
}

export type StakingService = ReturnType<typeof createStakingService>;
