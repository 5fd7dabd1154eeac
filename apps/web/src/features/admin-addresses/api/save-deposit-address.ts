import type {
  TCreateDepositAddressRequest,
  TProposedResponse,
  TUpdateDepositAddressRequest,
} from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

/** Proposed (202): the address is added when another staff member approves it. */
export function createDepositAddress(body: TCreateDepositAddressRequest) {
  return api.post<TProposedResponse>('/api/admin/deposit-addresses', body);
}

/** Proposed (202): the edit applies when another staff member approves it. */
export function updateDepositAddress(id: string, body: TUpdateDepositAddressRequest) {
  return api.patch<TProposedResponse>(
    `/api/admin/deposit-addresses/${encodeURIComponent(id)}`,
    body,
  );
}

/**
 * Proposes an address, or an edit of one when an id is given (decision 0036): nothing
 * changes yet, so only the changes queue refreshes; the address lists do when it is approved.
 */
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
    onSuccess: () => refreshChanges(queryClient),
  });
}
