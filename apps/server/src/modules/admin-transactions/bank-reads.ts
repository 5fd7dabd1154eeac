import type { TAdminTransaction } from '@coffer/shared';
import type { AdminTransactionsContext } from './admin-transactions-context';

/**
 * Where staff saw the accounts: the pending queue or one transaction (the list's rows are
 * summaries without an account).
 */
export type BankReadPlace = 'pending-queue' | 'transaction';

/**
 * Staff reading customers' bank accounts is written to the audit log: one row per request
 * that answered with at least one bank payout's account, naming the transactions and their
 * customers, never the account itself. Committed before the answer is sent, as a KYC
 * document's look is. An answer with no bank payout writes nothing.
 */
export async function auditBankReads(
  ctx: AdminTransactionsContext,
  actor: { id: string; ip: string | null },
  items: readonly Pick<TAdminTransaction, 'id' | 'customer' | 'bankTransfer'>[],
  place: BankReadPlace,
): Promise<void> {
  const read = items.filter((i) => i.bankTransfer !== null);
  const first = read[0];
  if (!first) return;
  const customers = [...new Set(read.map((i) => i.customer.id))];
  await ctx.audit.recordAlone(ctx.pool, {
    actorId: actor.id,
    action: 'bank_details.view',
    targetType: read.length === 1 ? 'transaction' : 'transactions',
    targetId: read.length === 1 ? first.id : place,
    targetUserId: customers.length === 1 ? customers[0] : null,
    after: { place, transactionIds: read.map((i) => i.id), customerIds: customers },
    ip: actor.ip,
  });
}
