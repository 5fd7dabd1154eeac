import {
  type TAdjustWalletBalanceRequest,
  type TProposedResponse,
  withoutStepUp,
} from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { refreshChanges } from '@web/lib/staff';

export function adjustWalletBalance(
  walletId: string,
  body: TAdjustWalletBalanceRequest,
  idempotencyKey: string,
) {
  return api.post<TProposedResponse>(
    `/api/admin/wallets/${encodeURIComponent(walletId)}/balance`,
    body,
    { 'Idempotency-Key': idempotencyKey },
  );
}

/**
 * A balance edit, proposed (202): when another staff member approves it, the server posts
 * an `adjustment` for the difference (product.md M7). A retry after an unknown outcome
 * reuses the key, so the proposal is never made twice. Nothing changes until then: only the
 * changes queue refreshes.
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
    onSuccess: () => refreshChanges(queryClient),
  });
}
