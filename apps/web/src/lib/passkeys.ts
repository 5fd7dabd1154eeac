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

/**
 * Whether the browser's prompt ended without an answer: no passkey of this account on the
 * device (the browser says no more than this, on purpose), or the prompt closed or timed out.
 */
export function isNoPasskeyAnswer(err: unknown): boolean {
  if (err instanceof WebAuthnError) return err.code !== 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED';
  // A prompt the person dismissed reaches here as a DOMException, not a WebAuthnError.
  return err instanceof DOMException && err.name === 'NotAllowedError';
}

export const NO_PASSKEY_MSG = {
  /** Where an authenticator code may be given instead, and the field for it is right there. */
  codeInstead:
    'No passkey for this account was found on this device, or the prompt was closed. Enter the 6-digit code from your authenticator app instead.',
  /** For someone who may only confirm with a passkey (admins held to passkeys). */
  passkeyOnly:
    'No passkey for this account was found on this device, or the prompt was closed. Use the device or security key that holds your passkey.',
} as const;

/**
 * What to tell the person when the browser's passkey prompt did not give an answer.
 * `codeInstead`: whether the screen offers an authenticator code beside the passkey.
 */
export function passkeyErrorMessage(
  err: unknown,
  fallback: string,
  { codeInstead = false }: { codeInstead?: boolean } = {},
): string {
  if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This passkey is already registered.';
  if (isNoPasskeyAnswer(err)) {
    if (codeInstead) return NO_PASSKEY_MSG.codeInstead;
    return 'The passkey prompt was closed or timed out. Please try again.';
  }
  return errorMessage(err, fallback);
}
