import type { TAdminTransactionsResponse } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminTransactionsKeys, type TransactionFilters } from './keys';

export type { TransactionFilters } from './keys';

/** the transactions screen refreshes every 30 s. */
export const TRANSACTIONS_REFRESH_MS = 30_000;

export function getAdminTransactions(
  f: TransactionFilters,
  signal?: AbortSignal,
): Promise<TAdminTransactionsResponse> {
  const params = transactionsSearchParams(f);
  params.set('page', String(f.page));
  params.set('pageSize', String(f.pageSize));
  return api.get<TAdminTransactionsResponse>(`/api/admin/transactions?${params}`, signal);
}

/** The list's search and filters as query parameters (its export takes the same). */
export function transactionsSearchParams(
  f: Omit<TransactionFilters, 'page' | 'pageSize'>,
): URLSearchParams {
  const params = new URLSearchParams({
    q: f.q,
    status: f.status,
    type: f.type,
    currency: f.currency,
  });
  if (f.from) params.set('from', f.from);
  if (f.to) params.set('to', f.to);
  return params;
}

export const adminTransactionsQueryOptions = (f: TransactionFilters) =>
  queryOptions({
    queryKey: adminTransactionsKeys.list(f),
    queryFn: ({ signal }) => getAdminTransactions(f, signal),
    staleTime: TRANSACTIONS_REFRESH_MS,
    refetchInterval: TRANSACTIONS_REFRESH_MS,
    // Keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/** A page of the list; not asked while `enabled` is false (a day range that runs backwards). */
export function useAdminTransactions(f: TransactionFilters, enabled = true) {
  return useQuery({ ...adminTransactionsQueryOptions(f), enabled });
}
