import type { TAnyAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import { completeDeposits, type PendingDepositInput, postPendingDeposits } from './chain-deposits';
import { changeStatus } from './change-status';
import type { TStatus } from './ledger.effects';
import type { TransactionRow } from './ledger.repository';
import type { LedgerContext, LockedWallet } from './ledger-context';
import { lockWallet, type PostFiatInput, type PostInput, post, postFiat } from './post-transaction';
import { reconcileRepository } from './reconcile.repository';
import { type Revision, remove, revise } from './revise-transaction';

/**
 * The only code that changes a balance, composed: each use case (posting, a block's
 * deposits, a status change, staff's edits and deletions) is its own file taking the shared
 * context (`ledger-context.ts`). Each call runs on a connection inside the caller's
 * database transaction, locks the wallet row, writes the ledger row and applies its effect,
 * and refuses anything that would leave less than nothing available.
 */
export function createLedger(opts: LedgerContext = {}) {
  const ctx: LedgerContext = opts;
  return {
    /** Locks the customer's wallet of an asset (creating it when missing) for a request to check. */
    lockWallet: (client: TxClient, userId: string, assetId: TAnyAssetId): Promise<LockedWallet> =>
      lockWallet(client, userId, assetId),

    /**
     * Writes a ledger row and applies its effect. `opts.wallet`: the wallet the caller
     * already locked with lockWallet in this transaction (it must be this row's).
     */
    post: (
      client: TxClient,
      input: PostInput,
      postOpts: { wallet?: LockedWallet } = {},
    ): Promise<TransactionRow> => post(ctx, client, input, postOpts),

    /** The chain deposits of one block, as pending credits, in one statement (the watcher). */
    postPendingDeposits: (client: TxClient, inputs: PendingDepositInput[]) =>
      postPendingDeposits(ctx, client, inputs),

    /** Completes pending chain deposits at their confirmations (the watcher). */
    completeDeposits: (client: TxClient, transactionIds: string[]) =>
      completeDeposits(ctx, client, transactionIds),

    /** Moves a row to another status and applies the difference of effects. */
    changeStatus: (
      client: TxClient,
      transactionId: string,
      next: TStatus,
      change: {
        transactionHash?: string | null;
        reason?: string | null;
        processedBy: string | null;
      },
    ) => changeStatus(ctx, client, transactionId, next, change),

    /** Records a fiat-only row (a bank transfer staff entered): it touches no wallet. */
    postFiat: (client: TxClient, input: PostFiatInput) => postFiat(ctx, client, input),

    /** An admin edit: the row's old effect is reversed and its new one applied. */
    revise: (client: TxClient, transactionId: string, next: Revision) =>
      revise(ctx, client, transactionId, next),

    /** An admin deletion: the row is marked deleted and its effect reversed. */
    remove: (client: TxClient, transactionId: string, by: string | null) =>
      remove(ctx, client, transactionId, by),

    /** Every wallet whose balance or hold is not the sum of its ledger rows (empty = clean). */
    reconcile: (db: pg.Pool | TxClient) => reconcileRepository.reconcile(db),
  };
}

export type Ledger = ReturnType<typeof createLedger>;
