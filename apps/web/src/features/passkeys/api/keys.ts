export const passkeysKeys = {
  signIn: () => ['passkey-sign-in'] as const,
};
