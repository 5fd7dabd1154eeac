/** Passkeys (WebAuthn) as a second factor beside TOTP: the front door (see ../README.md). */
export { passkeysRoutes } from './passkeys.routes';
export { createPasskeysService, PASSKEY_MSG, type PasskeysService } from './passkeys.service';
export { staffWithoutPasskey } from './staff-without-passkey';
