import { adminKeys } from '../../../lib/query-keys';
import type { TransactionFilters } from './get-admin-transactions';

export const adminTransactionsKeys = {
  list: (f: TransactionFilters) => [...adminKeys.transactions(), 'list', f] as const,
  one: (id: string) => [...adminKeys.transactions(), 'one', id] as const,
  pending: () => [...adminKeys.transactions(), 'pending'] as const,
};
