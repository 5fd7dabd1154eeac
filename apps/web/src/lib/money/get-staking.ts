import type { TStakingResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { moneyKeys } from './keys';

/** The dashboard re-reads the staking figures this often. */
export const STAKING_POLL_MS = 2000;

export function getStaking(signal?: AbortSignal): Promise<TStakingResponse> {
  return api.get<TStakingResponse>('/api/staking', signal);
}

export const stakingQueryOptions = () =>
  queryOptions({
    queryKey: moneyKeys.staking(),
    queryFn: ({ signal }) => getStaking(signal),
    staleTime: STAKING_POLL_MS,
  });

/** ETH staking figures, all computed by the server; `poll` keeps them live on screen. */
export function useStaking({ poll = false }: { poll?: boolean } = {}) {
  return useQuery({ ...stakingQueryOptions(), refetchInterval: poll ? STAKING_POLL_MS : false });
}
