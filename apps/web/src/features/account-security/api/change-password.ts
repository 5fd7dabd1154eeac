import type { TChangePasswordRequest, TOk } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionsQueryOptions } from './get-sessions';

export function changePassword(data: TChangePasswordRequest): Promise<TOk> {
  return api.post<TOk>('/api/account/password', data);
}

/** Changes the password; the server signs out every other device, so the list is read again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey });
    },
  });
}
