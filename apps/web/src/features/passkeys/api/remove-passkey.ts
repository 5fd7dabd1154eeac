import type { TOk } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { passkeysQueryOptions } from './get-passkeys';
import { signWithPasskey } from './sign-with-passkey';

/** Removal needs a fresh second factor: an authenticator code, or else a passkey's answer. */
export async function removePasskey(input: { id: string; code: string | null }): Promise<TOk> {
  const body = input.code !== null ? { code: input.code } : { assertion: await signWithPasskey() };
  return api.post<TOk>(`/api/passkeys/${encodeURIComponent(input.id)}/remove`, body);
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
