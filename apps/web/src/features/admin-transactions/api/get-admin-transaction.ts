import type { TAdminTransactionResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminTransactionsKeys } from './keys';

export function getAdminTransaction(
  id: string,
  signal?: AbortSignal,
): Promise<TAdminTransactionResponse> {
  return api.get<TAdminTransactionResponse>(
    `/api/admin/transactions/${encodeURIComponent(id)}`,
    signal,
  );
}

/** One transaction whole (addresses, hash, bank account), read when staff open it. */
export const adminTransactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: adminTransactionsKeys.one(id),
    queryFn: ({ signal }) => getAdminTransaction(id, signal),
  });

export function useAdminTransaction(id: string) {
  return useQuery(adminTransactionQueryOptions(id));
}
