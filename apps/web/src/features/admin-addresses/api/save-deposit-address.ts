import type {
  TAdminDepositAddress,
  TCreateDepositAddressRequest,
  TUpdateDepositAddressRequest,
} from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

type Answer = { address: TAdminDepositAddress };

export function createDepositAddress(body: TCreateDepositAddressRequest) {
  return api.post<Answer>('/api/admin/deposit-addresses', body);
}

export function updateDepositAddress(id: string, body: TUpdateDepositAddressRequest) {
  return api.patch<Answer>(`/api/admin/deposit-addresses/${encodeURIComponent(id)}`, body);
}

/** Adds an address, or edits one when an id is given; every address list refreshes after. */
export function useSaveDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      input:
        | { id: null; body: TCreateDepositAddressRequest }
        | { id: string; body: TUpdateDepositAddressRequest },
    ) =>
      input.id === null
        ? createDepositAddress(input.body)
        : updateDepositAddress(input.id, input.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.depositAddresses() }),
  });
}
