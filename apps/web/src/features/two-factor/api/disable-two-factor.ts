import type { TOk, TTwoFactorCodeRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sessionQueryOptions } from '../../../lib/session';
import { twoFactorStatusQueryOptions } from './get-two-factor-status';

export function disableTwoFactor(data: TTwoFactorCodeRequest): Promise<TOk> {
  return api.post<TOk>('/api/2fa/disable', data);
}

/**
 * Turns 2FA off with a current code. The session is read again afterwards: where 2FA is
 * required, the gate then asks for a new setup.
 */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    // Not awaited: the settings card confirms first; then the gate may take over.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey });
    },
  });
}
