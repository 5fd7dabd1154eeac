import type { TOk } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function cancelTwoFactorSetup(): Promise<TOk> {
  return api.post<TOk>('/api/2fa/setup/cancel');
}

/** Forgets the pending setup: its key, backup codes and phrase stop working. */
export function useCancelTwoFactorSetup() {
  return useMutation({ mutationFn: cancelTwoFactorSetup });
}
