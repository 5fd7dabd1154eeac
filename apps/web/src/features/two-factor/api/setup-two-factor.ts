import type { TTwoFactorSetupResponse } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function setupTwoFactor(): Promise<TTwoFactorSetupResponse> {
  return api.post<TTwoFactorSetupResponse>('/api/2fa/setup');
}

/**
 * This session's pending setup: made by the first call, the same answer on every later
 * one (a reload) until it is confirmed or cancelled.
 */
export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}
