import type { TOk, TResetPasswordRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionQueryOptions } from '@web/lib/session';

export function resetPassword(data: TResetPasswordRequest): Promise<TOk> {
  return api.post<TOk>('/api/auth/reset-password', data);
}

/**
 * Resets the password with the recovery phrase. The server ends every session of the
 * account, so whatever this browser had cached about a signed-in user is dropped too.
 */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      queryClient.removeQueries({
        predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'public-info',
      });
      queryClient.setQueryData(sessionQueryOptions().queryKey, null);
    },
  });
}
