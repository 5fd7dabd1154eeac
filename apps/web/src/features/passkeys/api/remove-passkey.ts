import type { TOk, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { passkeysQueryOptions } from '@web/lib/passkeys';

/** Removal needs a fresh second factor (step-up): a code, a backup code or a passkey. */
export function removePasskey(input: { id: string; stepUp: TStepUp }): Promise<TOk> {
  return api.post<TOk>(`/api/passkeys/${encodeURIComponent(input.id)}/remove`, input.stepUp);
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey });
    },
  });
}
