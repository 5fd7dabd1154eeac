import type { TPendingPayoutsQuery, TPendingPayoutsResponse } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { TRANSACTIONS_REFRESH_MS } from './get-admin-transactions';
import { adminTransactionsKeys } from './keys';

export function getPendingPayouts(
  query: TPendingPayoutsQuery,
  signal?: AbortSignal,
): Promise<TPendingPayoutsResponse> {
  const params = new URLSearchParams({
    q: query.q,
    asset: query.asset,
    type: query.type,
    approval: query.approval,
    order: query.order,
    limit: String(query.limit),
  });
  if (query.cursor) params.set('cursor', query.cursor);
  return api.get<TPendingPayoutsResponse>(`/api/admin/withdrawals/pending?${params}`, signal);
}

export const pendingPayoutsQueryOptions = (query: TPendingPayoutsQuery) =>
  queryOptions({
    queryKey: adminTransactionsKeys.pending(query),
    queryFn: ({ signal }) => getPendingPayouts(query, signal),
    staleTime: TRANSACTIONS_REFRESH_MS,
    refetchInterval: TRANSACTIONS_REFRESH_MS,
    // Keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/** A page of the withdrawals and bank transfers waiting for staff, oldest first by default. */
export function usePendingPayouts(query: TPendingPayoutsQuery) {
  return useQuery(pendingPayoutsQueryOptions(query));
}
