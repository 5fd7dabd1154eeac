import {
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
} from '@simplewebauthn/browser';
import { api } from '../../../lib/api-client';

/** A fresh challenge from the server, signed by one of the account's passkeys in the browser. */
export async function signWithPasskey(): Promise<AuthenticationResponseJSON> {
  const { options } = await api.post<{ options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/passkeys/assert/options',
  );
  return startAuthentication({ optionsJSON: options });
}
