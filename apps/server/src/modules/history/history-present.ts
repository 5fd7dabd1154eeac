import type { TTransaction } from '@coffer/shared';
import type { Secrets } from '@server/lib/crypto';
import type pg from 'pg';
import { presentTransaction, type TransactionRow } from '../ledger';
import { cancelRefusal, isCancelledByOwner } from '../withdrawals';
import { explorerLinkOf } from './explorer-link';
import { historyDetailsRepository as details } from './history-details.repository';

export type HistoryDeps = {
  pool: pg.Pool;
  /** The app settings (the explorer link templates); the cached reader in production. */
  settings: { all(): Promise<Map<string, string>> };
  /** Opens a bank payout's account, encrypted at rest, for its owner's history. */
  secrets: Pick<Secrets, 'decrypt'>;
};

/** A customer's own payout request still waiting: the rows Cancel may be offered on. */
const mayCancel = (row: TransactionRow, userId: string) =>
  row.status === 'pending' &&
  (row.transaction_type === 'withdrawal' || row.transaction_type === 'bank_transfer') &&
  row.created_by === userId;

/** '5678' of '12345678': enough for the customer to know the account, no more. */
const ending = (accountNumber: string) => accountNumber.slice(-4);

/**
 * A page's rows as the customer sees them: a chain deposit's confirmations, a withdrawal
 * on its way with the transaction that pays it, the explorer link, whether a payout was
 * cancelled or may be cancelled now, and where a bank payout goes. The details are read
 * for the page's rows only, one statement each.
 */
export async function presentPage(
  deps: HistoryDeps,
  userId: string,
  items: TransactionRow[],
): Promise<TTransaction[]> {
  const ids = (keep: (row: TransactionRow) => boolean) => items.filter(keep).map((r) => r.id);
  const pendingOf = (type: string) => (r: TransactionRow) =>
    r.transaction_type === type && r.status === 'pending';
  const [confirming, sent, approved, accounts, settings] = await Promise.all([
    details.confirmingDeposits(deps.pool, ids(pendingOf('deposit'))),
    details.sentPayouts(deps.pool, ids(pendingOf('withdrawal'))),
    details.approvedPayouts(
      deps.pool,
      ids((r) => r.transaction_type === 'withdrawal' && mayCancel(r, userId)),
    ),
    details.bankAccounts(
      deps.pool,
      ids((r) => r.transaction_type === 'bank_transfer'),
    ),
    deps.settings.all(),
  ]);
  const bank = new Map(
    accounts.map((a) => [
      a.transaction_id,
      {
        accountName: deps.secrets.decrypt(a.account_name_encrypted),
        bsb: deps.secrets.decrypt(a.bsb_number_encrypted),
        accountEnding: ending(deps.secrets.decrypt(a.account_number_encrypted)),
      },
    ]),
  );
  return items.map((row) => {
    const onChain = sent.get(row.id);
    // A withdrawal sent on chain shows its transaction while it confirms.
    const tx = onChain
      ? { ...presentTransaction(row), transactionHash: onChain.txHash }
      : presentTransaction(row);
    const chain =
      confirming.get(row.id) ??
      (onChain ? { current: onChain.current, required: onChain.required } : undefined);
    const explorerUrl = explorerLinkOf(settings, tx);
    const account = bank.get(row.id);
    const cancellable =
      mayCancel(row, userId) && cancelRefusal(row, userId, approved.has(row.id)) === null;
    return {
      ...tx,
      ...(chain ? { confirmations: chain } : {}),
      ...(explorerUrl ? { explorerUrl } : {}),
      ...(isCancelledByOwner(row) ? { cancelled: true } : {}),
      ...(cancellable ? { cancellable: true } : {}),
      ...(account ? { bankAccount: account } : {}),
    };
  });
}
