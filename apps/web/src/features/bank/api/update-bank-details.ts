import type { TBankDetailsResponse, TSaveBankDetailsRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { bankDetailsQueryOptions } from './get-bank-details';

export function updateBankDetails(details: TSaveBankDetailsRequest): Promise<TBankDetailsResponse> {
  return api.put<TBankDetailsResponse>('/api/bank-details', details);
}

/** Saves the customer's bank details (encrypted at rest on the server, product.md M9). */
export function useUpdateBankDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBankDetails,
    gcTime: 0,
    onSuccess: (res) => queryClient.setQueryData(bankDetailsQueryOptions().queryKey, res),
  });
}
