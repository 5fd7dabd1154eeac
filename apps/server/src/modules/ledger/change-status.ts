import { ASSETS } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { effectDelta, type TStatus } from './ledger.effects';
import { ledgerRepository as repo, type TransactionRow } from './ledger.repository';
import { applyDelta, changed, type LedgerContext } from './ledger-context';
import { assertNotFinal, assetOf, chainHash, stateOf } from './ledger-rules';

/**
 * Moves a row to another status and applies the difference of effects: a pending
 * withdrawal completed is debited and its hold released; rejected, only released.
 */
export async function changeStatus(
  ctx: LedgerContext,
  client: TxClient,
  transactionId: string,
  next: TStatus,
  change: {
    transactionHash?: string | null;
    reason?: string | null;
    processedBy: string | null;
  },
): Promise<TransactionRow> {
  const row = await repo.lockTransaction(client, transactionId);
  if (!row || row.deleted_at) throw new AppError('NOT_FOUND', 'Transaction not found.');
  assertNotFinal(row);
  // A bank payout's reference is the bank's; a crypto row's is its chain transaction.
  const crypto = row.wallet_id !== null && row.transaction_type !== 'bank_transfer';
  const transactionHash = crypto
    ? chainHash(assetOf(row.asset_id), change.transactionHash)
    : (change.transactionHash ?? null);
  if (row.wallet_id) {
    const assetId = assetOf(row.asset_id);
    const wallet = await repo.lockWallet(client, row.user_id, assetId, ASSETS[assetId].network);
    const before = stateOf(row);
    await applyDelta(
      ctx,
      client,
      wallet,
      assetId,
      effectDelta(before, { ...before, status: next }),
    );
  }
  const updated = await repo.updateStatus(client, transactionId, {
    status: next,
    transactionHash,
    reason: change.reason ?? null,
    processedBy: change.processedBy,
  });
  return changed(ctx, client, updated);
}
