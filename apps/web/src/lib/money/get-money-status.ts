import type { TMoneyStatus } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';

export function getMoneyStatus(signal?: AbortSignal): Promise<TMoneyStatus> {
  return api.get<TMoneyStatus>('/api/money/status', signal);
}

// The operator can switch deposits and withdrawals off at any time; keep it fresh.
export const moneyStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['money-status'],
    queryFn: ({ signal }) => getMoneyStatus(signal),
    staleTime: 30_000,
  });

/** Whether deposits and withdrawals are on, maintenance, and today's withdrawal allowance. */
export function useMoneyStatus() {
  return useQuery(moneyStatusQueryOptions());
}
