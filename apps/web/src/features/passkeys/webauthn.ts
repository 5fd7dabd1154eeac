import { WebAuthnError } from '@simplewebauthn/browser';
import { errorMessage } from '../../lib/api-client';

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
