import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@web/lib/download';
import { transactionsSearchParams } from './get-admin-transactions';
import type { TransactionFilters } from './keys';

/** Downloads every transaction the list's search and filters match, as CSV. */
export function exportAdminTransactions(
  filters: Omit<TransactionFilters, 'page' | 'pageSize'>,
): Promise<void> {
  return downloadFile(
    `/api/admin/transactions/export.csv?${transactionsSearchParams(filters)}`,
    'coffer-transactions.csv',
  );
}

export function useExportAdminTransactions() {
  return useMutation({ mutationFn: exportAdminTransactions });
}
