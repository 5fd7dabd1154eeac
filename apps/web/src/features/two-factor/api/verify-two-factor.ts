import type { TSessionResponse, TTwoFactorVerifyRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionQueryOptions } from '@web/lib/session';

export function verifyTwoFactor(data: TTwoFactorVerifyRequest): Promise<TSessionResponse> {
  return api.post<TSessionResponse>('/api/2fa/verify', data);
}

/** Passes the second factor for this session with an authenticator or a backup code. */
export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTwoFactor,
    onSuccess: ({ session }) => {
      queryClient.setQueryData(sessionQueryOptions().queryKey, session);
    },
  });
}
