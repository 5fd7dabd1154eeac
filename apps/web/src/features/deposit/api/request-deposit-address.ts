import type { TAssetId, TDepositAddressRequestResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { moneyKeys } from '@web/lib/money/keys';

export function requestDepositAddress(assetId: TAssetId): Promise<TDepositAddressRequestResponse> {
  return api.post<TDepositAddressRequestResponse>('/api/deposit-address-requests', { assetId });
}

/** Asks staff for an address of the asset; the deposit page then shows the request waiting. */
export function useRequestDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestDepositAddress,
    onSettled: () => queryClient.invalidateQueries({ queryKey: moneyKeys.depositAddresses() }),
  });
}
