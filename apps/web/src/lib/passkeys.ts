import type { TPasskeyAssertion, TPasskeyListResponse } from '@coffer/shared';
import {
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, errorMessage } from './api-client';
import { appKeys } from './query-keys';

/**
 * The account's passkeys and the browser's half of signing with one: what Settings' passkey
 * card, sign-in and every step-up (a withdrawal, a payout, bank details) share.
 */

export function getPasskeys(signal?: AbortSignal): Promise<TPasskeyListResponse> {
  return api.get<TPasskeyListResponse>('/api/passkeys', signal);
}

export const passkeysQueryOptions = () =>
  queryOptions({ queryKey: appKeys.passkeys(), queryFn: ({ signal }) => getPasskeys(signal) });

/** The account's passkeys, oldest first. */
export function usePasskeys(enabled = true) {
  return useQuery({ ...passkeysQueryOptions(), enabled });
}

/**
 * A fresh challenge from the server, signed by one of the account's passkeys in the browser,
 * as the server's schema reads it (extension results are not used, so not sent).
 */
export async function signWithPasskey(): Promise<TPasskeyAssertion> {
  const { options } = await api.post<{ options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/passkeys/assert/options',
  );
  const answer = await startAuthentication({ optionsJSON: options });
  const { userHandle } = answer.response;
  return {
    id: answer.id,
    rawId: answer.rawId,
    type: answer.type,
    response: {
      clientDataJSON: answer.response.clientDataJSON,
      authenticatorData: answer.response.authenticatorData,
      signature: answer.response.signature,
      ...(userHandle ? { userHandle } : {}),
    },
    ...(answer.authenticatorAttachment
      ? { authenticatorAttachment: answer.authenticatorAttachment }
      : {}),
    clientExtensionResults: {},
  };
}

/** What to tell the person when the browser's passkey prompt did not give an answer. */
export function passkeyErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof WebAuthnError) {
    if (err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
      return 'This passkey is already registered.';
    return 'The passkey prompt was closed or timed out. Please try again.';
  }
  // A prompt the person dismissed reaches here as a DOMException, not a WebAuthnError.
  if (err instanceof DOMException && err.name === 'NotAllowedError')
    return 'The passkey prompt was closed or timed out. Please try again.';
  return errorMessage(err, fallback);
}
