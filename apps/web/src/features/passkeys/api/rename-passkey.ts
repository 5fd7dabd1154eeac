import type { TPasskey, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { passkeysQueryOptions } from '@web/lib/passkeys';

/** A new name takes a fresh second factor (step-up), as a removal does. */
export function renamePasskey(input: {
  id: string;
  name: string;
  stepUp: TStepUp;
}): Promise<{ passkey: TPasskey }> {
  return api.patch<{ passkey: TPasskey }>(`/api/passkeys/${encodeURIComponent(input.id)}`, {
    name: input.name,
    stepUp: input.stepUp,
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey });
    },
  });
}
