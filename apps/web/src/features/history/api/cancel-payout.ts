import type { TTransactionResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { moneyStatusQueryOptions } from '@web/lib/money/get-money-status';
import { stakingQueryOptions } from '@web/lib/money/get-staking';
import { walletsQueryOptions } from '@web/lib/money/get-wallets';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { moneyKeys } from '@web/lib/money/keys';

export function cancelPayout(id: string, idempotencyKey: string): Promise<TTransactionResponse> {
  return api.post<TTransactionResponse>(
    `/api/withdrawals/${encodeURIComponent(id)}/cancel`,
    {},
    { 'Idempotency-Key': idempotencyKey },
  );
}

/**
 * Cancels the customer's own pending withdrawal or bank payout: what was held for it is
 * available again. A retry after an unknown outcome reuses the key. Balances, today's
 * allowance and the history are read again whatever the answer: a refusal means the row
 * on screen was out of date.
 */
export function useCancelPayout() {
  const queryClient = useQueryClient();
  const { keyFor, settle } = useIdempotencyKey();
  return useMutation({
    mutationFn: (id: string) => cancelPayout(id, keyFor({ cancel: id })),
    onSettled: (_data, error) => {
      settle(error ?? undefined);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: walletsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: stakingQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: moneyStatusQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: moneyKeys.transactions() }),
      ]);
    },
  });
}
