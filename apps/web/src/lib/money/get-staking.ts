import type { TStakingResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { usePollWhileOffline } from '../realtime';
import { moneyKeys } from './keys';

/** While the socket is down, the dashboard re-reads the staking figures this often. */
export const STAKING_POLL_MS = 2000;

export function getStaking(signal?: AbortSignal): Promise<TStakingResponse> {
  return api.get<TStakingResponse>('/api/staking', signal);
}

export const stakingQueryOptions = () =>
  queryOptions({
    queryKey: moneyKeys.staking(),
    queryFn: ({ signal }) => getStaking(signal),
    // Live, the socket's ledger events say when they change (a credit, a deposit, a
    // withdrawal); between two answers the board advances the accrual from the server's rate.
    staleTime: 30_000,
  });

/**
 * ETH staking figures, all computed by the server. `poll` keeps them fresh on screen while
 * the socket is down; while it is up, its ledger events bring each change.
 */
export function useStaking({ poll = false }: { poll?: boolean } = {}) {
  const refetchInterval = usePollWhileOffline(poll ? STAKING_POLL_MS : false);
  return useQuery({ ...stakingQueryOptions(), refetchInterval });
}
