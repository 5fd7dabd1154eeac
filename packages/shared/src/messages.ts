/**
 * Customer-facing texts quoted by the specification. The browser and the server use these
 * constants so a message reads the same wherever it is produced.
 */
export const MSG = {
  emailAndPasswordRequired: 'Email and password are required',
  passwordRule:
    'Password must contain at least one lowercase letter, one uppercase letter, and one number.',
  passwordTooShort: 'Password must be at least 8 characters long.',
  passwordsDoNotMatch: 'Passwords do not match.',
  invalidEmail: 'Please enter a valid email address.',
  invalidCredentials: 'Invalid email or password.',
  emailNotVerified:
    'Please verify your email address before signing in. Check your inbox for the link.',
  emailTaken: 'An account with this email already exists.',
  verificationLinkInvalid: 'This verification link is invalid or has expired.',
  sixDigitCode: 'Please enter a valid 6-digit code',
  invalidCode: 'Invalid code. Please try again.',
  enterRecoveryPhrase: 'Please enter your secret recovery phrase',
  phraseTwelveWords: 'Recovery phrase must contain exactly 12 words separated by spaces.',
  invalidRecoveryPhrase: 'Invalid recovery phrase. Please check your 12-word phrase and try again.',
  staffNoPhraseRecovery:
    'Staff accounts cannot be recovered with a recovery phrase. Ask another admin to restore your access.',
  passwordResetDone:
    'Password has been reset successfully! You can now sign in with your new password.',
  passwordRequired: 'Please enter your account password to continue.',
  passwordIncorrect: 'The password you entered is incorrect.',
  seedPhraseExists: 'You already have a seed phrase generated.',
  twoFactorRequired: 'Two-factor authentication is required to continue.',
  unauthenticated: 'Please sign in to continue.',
  forbidden: "You don't have permission to do that.",
  notFound: 'Not found.',
  foreignOrigin: 'This request came from another site and was refused.',
  internal: 'Something went wrong on our side. Please try again.',
  unavailable: 'Coffer cannot reach its database right now. Please try again in a few seconds.',
  busy: 'Coffer is busy checking other sign-ins right now. Please try again in a few seconds.',
  contended: 'Coffer is busy with other changes to the same records. Please try again in a moment.',
} as const;
