import type { TTransactionsResponse } from '@coffer/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { historyKeys } from './keys';

export const TRANSACTIONS_PAGE_SIZE = 25;

export function getTransactions(
  { cursor, limit = TRANSACTIONS_PAGE_SIZE }: { cursor?: string; limit?: number },
  signal?: AbortSignal,
): Promise<TTransactionsResponse> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor) params.set('cursor', cursor);
  return api.get<TTransactionsResponse>(`/api/transactions?${params}`, signal);
}

// Every transactions query starts with 'transactions': a withdrawal or bank transfer
// elsewhere invalidates them all with that one key.
export const transactionsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: historyKeys.list(),
    queryFn: ({ pageParam, signal }) => getTransactions({ cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 30_000,
  });

/** The customer's transactions, newest first, a page at a time (keyset cursor). */
export function useTransactions() {
  return useInfiniteQuery(transactionsQueryOptions());
}
