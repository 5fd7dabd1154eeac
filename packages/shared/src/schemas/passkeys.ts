import { z } from 'zod';

export const PASSKEY_NAME_MAX = 60;

export const ZPasskeyName = z
  .string()
  .trim()
  .min(1, 'Give the passkey a name.')
  .max(PASSKEY_NAME_MAX, `A passkey name is at most ${PASSKEY_NAME_MAX} characters.`);

/** How an authenticator can be reached, as WebAuthn names them. */
export const PASSKEY_TRANSPORTS = [
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
] as const;

const B64URL = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'Not a valid passkey answer.');

/** What the browser's WebAuthn call returns after creating a credential, as JSON. */
export const ZPasskeyRegistrationCredential = z.object({
  id: B64URL,
  rawId: B64URL,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: B64URL,
    attestationObject: B64URL,
    transports: z.array(z.enum(PASSKEY_TRANSPORTS)).max(10).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({}).default({}),
});
export type TPasskeyRegistrationCredential = z.infer<typeof ZPasskeyRegistrationCredential>;

/** What the browser's WebAuthn call returns after signing a challenge, as JSON. */
export const ZPasskeyAssertion = z.object({
  id: B64URL,
  rawId: B64URL,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: B64URL,
    authenticatorData: B64URL,
    signature: B64URL,
    userHandle: B64URL.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({}).default({}),
});
export type TPasskeyAssertion = z.infer<typeof ZPasskeyAssertion>;

/**
 * The options of a WebAuthn ceremony, made by the server's WebAuthn library and handed to
 * the browser's as they are.
 */
export const ZPasskeyOptionsResponse = z.object({
  options: z.record(z.string(), z.unknown()),
});
export type TPasskeyOptionsResponse = z.infer<typeof ZPasskeyOptionsResponse>;

export const ZPasskeyRegisterRequest = z.object({
  name: ZPasskeyName,
  credential: ZPasskeyRegistrationCredential,
});
export type TPasskeyRegisterRequest = z.infer<typeof ZPasskeyRegisterRequest>;

export const ZPasskeyRenameRequest = z.object({ name: ZPasskeyName });
export type TPasskeyRenameRequest = z.infer<typeof ZPasskeyRenameRequest>;

export const ZPasskeySignInRequest = z.object({ assertion: ZPasskeyAssertion });
export type TPasskeySignInRequest = z.infer<typeof ZPasskeySignInRequest>;

export const ZPasskeyIdParams = z.object({ id: z.uuid('Unknown passkey.') });

export const ZPasskey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;

export const ZPasskeyResponse = z.object({ passkey: ZPasskey });
export const ZPasskeyListResponse = z.object({
  passkeys: z.array(ZPasskey),
  /**
   * Whether only a passkey confirms for this account (an admin on an installation that
   * holds admins to passkeys): the step-up dialog then offers no code field.
   */
  passkeyOnly: z.boolean(),
});
export type TPasskeyListResponse = z.infer<typeof ZPasskeyListResponse>;

/** Whether the sign-in screen may offer "Use a passkey" to this password-only session. */
export const ZPasskeySignInStatusResponse = z.object({
  available: z.boolean(),
  /** Codes are refused for this account (an admin held to passkeys): only a passkey signs in. */
  passkeyOnly: z.boolean(),
});
export type TPasskeySignInStatusResponse = z.infer<typeof ZPasskeySignInStatusResponse>;
