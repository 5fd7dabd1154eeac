import type pg from 'pg';
import type { TransactionRow } from '../ledger';
import type { AdminTransactionsContext } from './admin-transactions-context';
import { rowWords } from './transaction-change-view';

const VERBS = { recorded: 'recorded', changed: 'changed', removed: 'removed' } as const;

/**
 * Tells the customer, on the approval's transaction, that staff recorded, changed or removed
 * a row of their history: nothing about their money changes behind their back. The mail
 * names the row (type, amount, status) and the reason, never a bank account or address.
 */
export async function mailLedgerChange(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  to: string,
  what: keyof typeof VERBS,
  row: TransactionRow,
  reason: string,
): Promise<void> {
  const words = rowWords(row);
  await ctx.outbox.mail(client, {
    to,
    subject: `Coffer staff ${VERBS[what]} a transaction on your account`,
    text: [
      `Coffer staff ${VERBS[what]} ${words} on your account.`,
      '',
      `The reason given: ${reason}`,
      '',
      `Your transaction history: ${ctx.publicUrl}/dashboard/history`,
      '',
      'If you did not expect this, contact support from your dashboard.',
    ].join('\n'),
  });
}
