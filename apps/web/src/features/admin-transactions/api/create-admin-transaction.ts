import type { TCreateAdminTransactionRequest, TProposedResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

export function createAdminTransaction(
  body: TCreateAdminTransactionRequest,
  idempotencyKey: string,
): Promise<TProposedResponse> {
  return api.post<TProposedResponse>('/api/admin/transactions', body, {
    'Idempotency-Key': idempotencyKey,
  });
}

/** Proposed (202): the transaction is booked when another staff member approves it. */
export function useCreateAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: TCreateAdminTransactionRequest; key: string }) =>
      createAdminTransaction(body, key),
    onSuccess: () => refreshChanges(queryClient),
  });
}
