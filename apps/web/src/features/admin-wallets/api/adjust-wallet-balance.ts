import {
  type TAdjustWalletBalanceRequest,
  type TAdjustWalletBalanceResponse,
  withoutStepUp,
} from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { adminWalletsKeys } from './keys';

export function adjustWalletBalance(
  walletId: string,
  body: TAdjustWalletBalanceRequest,
  idempotencyKey: string,
) {
  return api.post<TAdjustWalletBalanceResponse>(
    `/api/admin/wallets/${encodeURIComponent(walletId)}/balance`,
    body,
    { 'Idempotency-Key': idempotencyKey },
  );
}

/**
 * A balance edit: the server posts an `adjustment` for the difference (product.md M7). A
 * retry after an unknown outcome reuses the key, so the adjustment is never posted twice.
 */
export function useAdjustWalletBalance() {
  const queryClient = useQueryClient();
  const { keyFor, settle } = useIdempotencyKey();
  return useMutation({
    mutationFn: (input: { walletId: string; body: TAdjustWalletBalanceRequest }) =>
      adjustWalletBalance(
        input.walletId,
        input.body,
        // The key stands for the edit without its step-up: a retry carries a new code.
        keyFor({ walletId: input.walletId, ...withoutStepUp(input.body) }),
      ),
    onSettled: (_data, error) => settle(error ?? undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminWalletsKeys.all() }),
  });
}
