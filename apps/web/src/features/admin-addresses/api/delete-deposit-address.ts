import type { TOk, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

/** Deletes an address: the customer's deposits stop landing, so it takes a step-up. */
export function deleteDepositAddress(id: string, stepUp: TStepUp) {
  return api.delete<TOk>(`/api/admin/deposit-addresses/${encodeURIComponent(id)}`, { stepUp });
}

export function useDeleteDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stepUp }: { id: string; stepUp: TStepUp }) =>
      deleteDepositAddress(id, stepUp),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.depositAddresses() }),
  });
}
