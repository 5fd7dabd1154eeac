import type { TPasskey } from '@coffer/shared';
import {
  type PublicKeyCredentialCreationOptionsJSON,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { passkeysQueryOptions } from '@web/lib/passkeys';

/** Asks the server for a challenge, lets the browser make the credential, sends it back. */
export async function addPasskey(name: string): Promise<TPasskey> {
  const { options } = await api.post<{ options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/passkeys/register/options',
  );
  const credential = await startRegistration({ optionsJSON: options });
  const { passkey } = await api.post<{ passkey: TPasskey }>('/api/passkeys/register', {
    name,
    credential,
  });
  return passkey;
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey });
    },
  });
}
