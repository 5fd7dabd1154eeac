import type { TSessionResponse, TSignInRequest } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function signIn(data: TSignInRequest): Promise<TSessionResponse> {
  return api.post<TSessionResponse>('/api/auth/sign-in', data);
}

/**
 * Signs in. The caller puts the returned session into the cache itself: it has to clear
 * the previous entries first, so that /auth does not redirect to /dashboard before the
 * caller navigates to the page that was asked for.
 */
export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
