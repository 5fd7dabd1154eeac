import type { TPayoutChain, TPayoutsOverview } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminPayoutsKeys } from './keys';

/** Confirmations arrive block by block: staff watching the screen see them within 15 s. */
export const PAYOUTS_REFRESH_MS = 15_000;

export function getPayouts(chain: TPayoutChain, signal?: AbortSignal): Promise<TPayoutsOverview> {
  return api.get<TPayoutsOverview>(`/api/admin/payouts?chain=${encodeURIComponent(chain)}`, signal);
}

export const payoutsQueryOptions = (chain: TPayoutChain) =>
  queryOptions({
    queryKey: adminPayoutsKeys.chain(chain),
    queryFn: ({ signal }) => getPayouts(chain, signal),
    refetchInterval: PAYOUTS_REFRESH_MS,
  });

/** A chain's approved payouts waiting for a batch, its batches, balances and payout address. */
export function usePayouts(chain: TPayoutChain) {
  return useQuery(payoutsQueryOptions(chain));
}
