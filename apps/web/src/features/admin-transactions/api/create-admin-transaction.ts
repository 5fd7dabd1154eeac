import type { TAdminTransactionResponse, TCreateAdminTransactionRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

export function createAdminTransaction(
  body: TCreateAdminTransactionRequest,
  idempotencyKey: string,
): Promise<TAdminTransactionResponse> {
  return api.post<TAdminTransactionResponse>('/api/admin/transactions', body, {
    'Idempotency-Key': idempotencyKey,
  });
}

export function useCreateAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: TCreateAdminTransactionRequest; key: string }) =>
      createAdminTransaction(body, key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.transactions() }),
  });
}
