import type { TPendingPayoutsQuery } from '@coffer/shared';
import { adminKeys } from '@web/lib/query-keys';

/** The transactions screen's filters and page: its query key and its request. */
export type TransactionFilters = {
  q: string;
  status: string;
  type: string;
  currency: string;
  /** UTC calendar days, YYYY-MM-DD, or '' for an open end. */
  from: string;
  to: string;
  page: number;
  pageSize: number;
};

export const adminTransactionsKeys = {
  list: (f: TransactionFilters) => [...adminKeys.transactions(), 'list', f] as const,
  one: (id: string) => [...adminKeys.transactions(), 'one', id] as const,
  pendingAll: () => [...adminKeys.transactions(), 'pending'] as const,
  pending: (q: TPendingPayoutsQuery) => [...adminTransactionsKeys.pendingAll(), q] as const,
};
