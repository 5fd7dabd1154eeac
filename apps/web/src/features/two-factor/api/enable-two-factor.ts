import type { TSessionResponse, TTwoFactorEnableRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionQueryOptions } from '@web/lib/session';
import { twoFactorStatusQueryOptions } from './get-two-factor-status';

export function enableTwoFactor(data: TTwoFactorEnableRequest): Promise<TSessionResponse> {
  return api.post<TSessionResponse>('/api/2fa/enable', data);
}

/**
 * Confirms the pending setup with a code (and the words of the new phrase it asks for);
 * the returned session counts as verified.
 */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    // Not awaited: the caller's own success handler runs before the gate re-renders.
    onSuccess: ({ session }) => {
      queryClient.setQueryData(sessionQueryOptions().queryKey, session);
      void queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey });
    },
  });
}
