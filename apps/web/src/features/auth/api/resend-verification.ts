import type { TOk } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function resendVerification(email: string): Promise<TOk> {
  return api.post<TOk>('/api/auth/resend-verification', { email });
}

/** Mails a new confirmation link to an address that is not confirmed yet. */
export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
