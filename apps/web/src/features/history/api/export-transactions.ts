import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@web/lib/download';
import { filterParams, type THistoryView } from './history-view';

/** Downloads the customer's history as CSV, with the filters, search and sort on screen. */
export function exportTransactions(view: THistoryView): Promise<void> {
  const params = filterParams(view).toString();
  return downloadFile(
    `/api/transactions/export.csv${params ? `?${params}` : ''}`,
    'coffer-transactions.csv',
  );
}

export function useExportTransactions() {
  return useMutation({ mutationFn: exportTransactions });
}
