import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@web/lib/download';

/** Downloads the customer's whole history as CSV. */
export function exportTransactions(): Promise<void> {
  return downloadFile('/api/transactions/export.csv', 'coffer-transactions.csv');
}

export function useExportTransactions() {
  return useMutation({ mutationFn: exportTransactions });
}
