import type { TPasskeySignInStatusResponse, TSessionResponse } from '@coffer/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { signWithPasskey } from '@web/lib/passkeys';
import { sessionQueryOptions } from '@web/lib/session';
import { passkeysKeys } from './keys';

export function getPasskeySignInStatus(signal?: AbortSignal) {
  return api.get<TPasskeySignInStatusResponse>('/api/passkeys/sign-in', signal);
}

export const passkeySignInStatusQueryOptions = () =>
  queryOptions({
    queryKey: passkeysKeys.signIn(),
    queryFn: ({ signal }) => getPasskeySignInStatus(signal),
  });

/** Whether this password-only session may finish signing in with a passkey. */
export function usePasskeySignInStatus() {
  return useQuery(passkeySignInStatusQueryOptions());
}

export async function signInWithPasskey(): Promise<TSessionResponse> {
  const assertion = await signWithPasskey();
  return api.post<TSessionResponse>('/api/passkeys/sign-in', { assertion });
}

/** Passes the second factor for this session with a passkey, as a code would. */
export function useSignInWithPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: ({ session }) => {
      queryClient.setQueryData(sessionQueryOptions().queryKey, session);
    },
  });
}
