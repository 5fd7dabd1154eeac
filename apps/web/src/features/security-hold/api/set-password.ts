import type { TOk, TSetPasswordRequest } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function setPasswordWithLink(data: TSetPasswordRequest): Promise<TOk> {
  return api.post<TOk>('/api/security/set-password', data);
}

/** The link mailed once two admins lifted a freeze: the owner's new password. */
export function useSetPasswordWithLink() {
  return useMutation({ mutationFn: setPasswordWithLink });
}
