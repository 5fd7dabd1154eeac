import type { TPasskey } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { passkeysQueryOptions } from '@web/lib/passkeys';

export function renamePasskey(input: { id: string; name: string }): Promise<{ passkey: TPasskey }> {
  return api.patch<{ passkey: TPasskey }>(`/api/passkeys/${encodeURIComponent(input.id)}`, {
    name: input.name,
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
