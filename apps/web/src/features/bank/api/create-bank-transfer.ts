import type { TCreateBankTransferRequest, TTransactionResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { moneyStatusQueryOptions } from '@web/lib/money/get-money-status';
import { walletsQueryOptions } from '@web/lib/money/get-wallets';
import { moneyKeys } from '@web/lib/money/keys';

export type TCreateBankTransferInput = {
  body: TCreateBankTransferRequest;
  /** The same key for a retry of the same request, so it is never made twice. */
  idempotencyKey: string;
};

export function createBankTransfer({
  body,
  idempotencyKey,
}: TCreateBankTransferInput): Promise<TTransactionResponse> {
  return api.post<TTransactionResponse>('/api/bank-transfers', body, {
    'Idempotency-Key': idempotencyKey,
  });
}

/** Requests an AUD bank transfer; it appears in the history as pending. */
export function useCreateBankTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBankTransfer,
    gcTime: 0,
    onSettled: () =>
      Promise.all([
        // The history's queries (features/history) all start with this key.
        queryClient.invalidateQueries({ queryKey: moneyKeys.transactions() }),
        queryClient.invalidateQueries({ queryKey: walletsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: moneyStatusQueryOptions().queryKey }),
      ]),
  });
}
