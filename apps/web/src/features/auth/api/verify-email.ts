import type { TOk } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function verifyEmail(token: string): Promise<TOk> {
  return api.post<TOk>('/api/auth/verify-email', { token });
}

/** Confirms an e-mail address with the token from the link the server mailed. */
export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
