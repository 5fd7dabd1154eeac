import type { TOk } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function freezeAccount(token: string): Promise<TOk> {
  return api.post<TOk>('/api/security/freeze', { token });
}

/** "This wasn't me": freezes the account with the token from a security-hold mail. */
export function useFreezeAccount() {
  return useMutation({ mutationFn: freezeAccount });
}
