import type { TPendingPayoutsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { TRANSACTIONS_REFRESH_MS } from './get-admin-transactions';
import { adminTransactionsKeys } from './keys';

export function getPendingPayouts(signal?: AbortSignal): Promise<TPendingPayoutsResponse> {
  return api.get<TPendingPayoutsResponse>('/api/admin/withdrawals/pending', signal);
}

export const pendingPayoutsQueryOptions = () =>
  queryOptions({
    queryKey: adminTransactionsKeys.pending(),
    queryFn: ({ signal }) => getPendingPayouts(signal),
    staleTime: TRANSACTIONS_REFRESH_MS,
    refetchInterval: TRANSACTIONS_REFRESH_MS,
  });

/** Withdrawals and bank transfers waiting for staff, oldest first. */
export function usePendingPayouts() {
  return useQuery(pendingPayoutsQueryOptions());
}
