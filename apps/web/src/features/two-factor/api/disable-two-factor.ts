import type { TOk, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionQueryOptions } from '@web/lib/session';
import { twoFactorStatusQueryOptions } from './get-two-factor-status';

/** Its body is a step-up: the settings card sends a current authenticator code. */
export function disableTwoFactor(data: TStepUp): Promise<TOk> {
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
