import type { TTwoFactorStatusResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { twoFactorKeys } from './keys';

export function getTwoFactorStatus(signal?: AbortSignal): Promise<TTwoFactorStatusResponse> {
  return api.get<TTwoFactorStatusResponse>('/api/2fa/status', signal);
}

export const twoFactorStatusQueryOptions = () =>
  queryOptions({
    queryKey: twoFactorKeys.status(),
    queryFn: ({ signal }) => getTwoFactorStatus(signal),
    // Settings read it on load: it must reflect the account now, not five minutes ago.
    staleTime: 0,
  });

/** Whether 2FA is on, whether the account must have it, and how many backup codes are left. */
export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}
