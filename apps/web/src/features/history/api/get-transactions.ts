import type { TTransactionsResponse } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { type THistoryView, viewParams } from './history-view';
import { historyKeys } from './keys';

export const TRANSACTIONS_PAGE_SIZE = 25;

export function getTransactions(
  view: THistoryView,
  signal?: AbortSignal,
  limit = TRANSACTIONS_PAGE_SIZE,
): Promise<TTransactionsResponse> {
  const params = viewParams(view);
  params.set('limit', String(limit));
  return api.get<TTransactionsResponse>(`/api/transactions?${params}`, signal);
}

// Every transactions query starts with 'transactions': a withdrawal or bank transfer
// elsewhere invalidates them all with that one key.
export const transactionsQueryOptions = (view: THistoryView) =>
  queryOptions({
    queryKey: historyKeys.page(view),
    queryFn: ({ signal }) => getTransactions(view, signal),
    staleTime: 30_000,
    // The page stays on screen while the next one (a filter, a sort, Next) loads.
    placeholderData: keepPreviousData,
  });

/** One page of the customer's transactions as the view asks (filters, sort, keyset position). */
export function useTransactions(view: THistoryView) {
  return useQuery(transactionsQueryOptions(view));
}
