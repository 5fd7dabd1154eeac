import type { TTwoFactorSetupResponse } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function setupTwoFactor(): Promise<TTwoFactorSetupResponse> {
  return api.post<TTwoFactorSetupResponse>('/api/2fa/setup');
}

/**
 * Starts a setup: a new pending secret and backup codes (and the recovery phrase, the
 * first time). Each call replaces the pending secret, so call it once per setup.
 */
export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}
