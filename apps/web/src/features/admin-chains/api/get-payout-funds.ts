import type { TPayoutsOverview } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { CHAINS_REFRESH_MS } from './get-admin-chains';
import { adminChainsKeys } from './keys';

/**
 * Ethereum's payout address (`ETH_XPUB/1/0`) and what it holds, for the Chains screen: the
 * operator funds it with ETH and USDT before payouts can be built. Read from the payouts API.
 */
export const payoutFundsQueryOptions = () =>
  queryOptions({
    queryKey: adminChainsKeys.payoutFunds(),
    queryFn: ({ signal }) => api.get<TPayoutsOverview>('/api/admin/payouts?chain=ethereum', signal),
    refetchInterval: CHAINS_REFRESH_MS,
    select: (o) => ({ address: o.payoutAddress, balances: o.balances }),
  });

export function usePayoutFunds(enabled: boolean) {
  return useQuery({ ...payoutFundsQueryOptions(), enabled });
}
