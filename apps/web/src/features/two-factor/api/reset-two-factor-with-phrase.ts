import type { TSessionResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionQueryOptions } from '@web/lib/session';
import { twoFactorStatusQueryOptions } from './get-two-factor-status';

export function resetTwoFactorWithPhrase(seedPhrase: string): Promise<TSessionResponse> {
  return api.post<TSessionResponse>('/api/2fa/reset-with-phrase', { seedPhrase });
}

/**
 * Turns 2FA off with the recovery phrase. The returned session has 2FA off, so where it is
 * required the gate shows the forced setup next.
 */
export function useResetTwoFactorWithPhrase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetTwoFactorWithPhrase,
    onSuccess: ({ session }) => {
      queryClient.setQueryData(sessionQueryOptions().queryKey, session);
      void queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey });
    },
  });
}
