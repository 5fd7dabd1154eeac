import type { TAdminDepositAddress, TUpdateDepositAddressRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

export function updateDepositAddress(id: string, body: TUpdateDepositAddressRequest) {
  return api.patch<{ address: TAdminDepositAddress }>(
    `/api/admin/deposit-addresses/${encodeURIComponent(id)}`,
    body,
  );
}

export function useUpdateDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body: TUpdateDepositAddressRequest }) =>
      updateDepositAddress(input.id, input.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.depositAddresses() }),
  });
}
