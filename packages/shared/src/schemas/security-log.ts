import { z } from 'zod';

/**
 * Every kind of entry the account's security activity log can hold, with the label the
 * customer reads. A closed list: the server refuses to record anything else, so the screen
 * never shows an entry it cannot name. `failure` marks a refused attempt, recorded even
 * though the attempt itself changed nothing.
 */
export const SECURITY_EVENT_KINDS = {
  'sign-in': { label: 'Signed in', failure: false },
  'sign-in-password-accepted': {
    label: 'Right password entered; the second factor was asked for',
    failure: false,
  },
  'sign-in-failed': { label: 'Sign-in refused: wrong password', failure: true },
  'sign-in-refused-frozen': { label: 'Sign-in refused: the account is frozen', failure: true },
  'two-factor-failed': { label: 'Sign-in refused: wrong code or passkey', failure: true },
  'step-up-failed': { label: 'Confirmation refused: wrong code or passkey', failure: true },
  'two-factor-enabled': { label: 'Two-factor authentication turned on', failure: false },
  'two-factor-disabled': { label: 'Two-factor authentication turned off', failure: false },
  'two-factor-reset': {
    label: 'Two-factor authentication reset with the recovery phrase',
    failure: false,
  },
  'two-factor-reset-by-staff': {
    label: 'Two-factor authentication reset by Coffer support',
    failure: false,
  },
  'two-factor-disabled-by-staff': {
    label: 'Two-factor authentication turned off by Coffer support',
    failure: false,
  },
  'two-factor-waived-by-staff': {
    label: 'Two-factor authentication made optional by Coffer support',
    failure: false,
  },
  'passkey-added': { label: 'Passkey added', failure: false },
  'passkey-removed': { label: 'Passkey removed', failure: false },
  'passkey-renamed': { label: 'Passkey renamed', failure: false },
  'password-changed': { label: 'Password changed', failure: false },
  'password-reset': { label: 'Password reset with the recovery phrase', failure: false },
  'phrase-created': { label: 'Recovery phrase created', failure: false },
  'phrase-confirmed': { label: 'Recovery phrase confirmed', failure: false },
  'security-hold-started': { label: 'Security hold started', failure: false },
  'account-frozen': { label: 'Account frozen', failure: false },
  'account-unfrozen': { label: 'Account unfrozen by Coffer support', failure: false },
  'unfreeze-requested': { label: 'Coffer support asked to unfreeze the account', failure: false },
  'unfreeze-rejected': { label: 'Coffer support kept the account frozen', failure: false },
  'password-set-by-link': {
    label: 'New password set with the link from Coffer support',
    failure: false,
  },
  'session-signed-out': { label: 'A device was signed out', failure: false },
  'other-sessions-signed-out': { label: 'Every other device was signed out', failure: false },
} as const satisfies Record<string, { label: string; failure: boolean }>;

export type TSecurityEventKind = keyof typeof SECURITY_EVENT_KINDS;

/**
 * What a sign-in entry names as its detail: the factors that signed in, so the owner (and
 * staff) can tell a sign-in with a backup code, say, from their usual one.
 */
export const SIGN_IN_FACTORS = {
  password: 'Password',
  code: 'Password and authenticator code',
  backupCode: 'Password and backup code',
  passkey: 'Password and passkey',
} as const;

/** The factor a refused second-factor attempt (at sign-in or confirming) was made with. */
export const SECOND_FACTOR_NAMES = {
  code: 'Authenticator code',
  backupCode: 'Backup code',
  passkey: 'Passkey',
} as const;

function isKind(kind: string): kind is TSecurityEventKind {
  return Object.hasOwn(SECURITY_EVENT_KINDS, kind);
}

export const ZSecurityEventKind = z.string().refine(isKind, 'Unknown security event kind.');

/** The refused attempts the log keeps: a test of a refusal expects these and nothing else. */
export const SECURITY_EVENT_FAILURES: readonly TSecurityEventKind[] = Object.entries(
  SECURITY_EVENT_KINDS,
)
  .filter(([, v]) => v.failure)
  .map(([k]) => k)
  .filter(isKind);

/** The label of a kind; a kind from a newer server than this page still reads as something. */
export function securityEventLabel(kind: string): string {
  return isKind(kind) ? SECURITY_EVENT_KINDS[kind].label : 'Security event';
}

/** How many entries the activity screens show: the newest ones. */
export const SECURITY_ACTIVITY_LIMIT = 50;

export const ZSecurityEvent = z.object({
  id: z.string(),
  kind: z.string(),
  label: z.string(),
  /** ISO 8601 time of the event. */
  at: z.string(),
  ip: z.string().nullable(),
  /** A short label from the user agent, e.g. "Chrome on Windows"; null when none was sent. */
  device: z.string().nullable(),
  /** Short free text; never a secret. */
  detail: z.string().nullable(),
});
export type TSecurityEvent = z.infer<typeof ZSecurityEvent>;

export const ZSecurityActivityResponse = z.object({ events: z.array(ZSecurityEvent) });
export type TSecurityActivityResponse = z.infer<typeof ZSecurityActivityResponse>;
