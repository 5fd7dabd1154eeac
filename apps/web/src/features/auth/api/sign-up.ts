import type { TOk, TSignUpRequest } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function signUp(data: TSignUpRequest): Promise<TOk> {
  return api.post<TOk>('/api/auth/sign-up', data);
}

/** Creates an unverified account; the server mails the confirmation link. */
export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
