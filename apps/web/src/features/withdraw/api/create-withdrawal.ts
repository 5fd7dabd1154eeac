import type { TCreateWithdrawalRequest, TTransactionResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { moneyStatusQueryOptions } from '@web/lib/money/get-money-status';
import { stakingQueryOptions } from '@web/lib/money/get-staking';
import { walletsQueryOptions } from '@web/lib/money/get-wallets';
import { moneyKeys } from '@web/lib/money/keys';

export type TCreateWithdrawalInput = {
  body: TCreateWithdrawalRequest;
  /** The same key for a retry of the same request, so it can never be paid twice. */
  idempotencyKey: string;
};

export function createWithdrawal({
  body,
  idempotencyKey,
}: TCreateWithdrawalInput): Promise<TTransactionResponse> {
  return api.post<TTransactionResponse>('/api/withdrawals', body, {
    'Idempotency-Key': idempotencyKey,
  });
}

/**
 * Requests a withdrawal; amount + fee are held from the available balance at once
 * (product.md M6). Balances, today's allowance and the history are re-read afterwards,
 * whatever the answer: a refusal may mean the figures on screen were out of date.
 */
export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWithdrawal,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: walletsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: stakingQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: moneyStatusQueryOptions().queryKey }),
        // The history's queries (features/history) all start with this key.
        queryClient.invalidateQueries({ queryKey: moneyKeys.transactions() }),
      ]),
  });
}
