import type { TPasskey } from '@coffer/shared';
import type pg from 'pg';
import type { Outbox } from '../outbox';
import type { RateLimiter } from '../rate-limit';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import type { SessionContext, Sessions } from '../sessions';
import type { StepUp } from '../step-up';
import type { PasskeyRow } from './passkeys.repository';

/** What the passkeys service is built from (the composition root passes it). */
export type PasskeysDeps = {
  pool: pg.Pool;
  sessions: Sessions;
  limiter: RateLimiter;
  outbox: Outbox;
  settings: { all(client?: pg.PoolClient): Promise<Map<string, string>> };
  securityHold: Pick<SecurityHold, 'assertClear'>;
  stepUp: Pick<StepUp, 'confirm'>;
  securityLog: Pick<SecurityLog, 'record' | 'recordQuietly'>;
  publicUrl: string;
};

/**
 * What the parts of the passkeys service share: its dependencies and the relying party,
 * built once by `createPasskeysService`.
 */
export type PasskeysContext = PasskeysDeps & {
  /** The installation's host name: a passkey made for it works only there. */
  rpID: string;
  /** The only origin whose signed answers are accepted. */
  origin: string;
  /** Where the owner's mails send them to act on a change they did not make. */
  settingsUrl: string;
};

/**
 * The relying party is the installation's public address: a passkey made for it works only
 * there, and an answer signed for any other origin is refused.
 */
export function passkeysContext(deps: PasskeysDeps): PasskeysContext {
  const publicUrl = new URL(deps.publicUrl);
  return {
    ...deps,
    rpID: publicUrl.hostname,
    origin: publicUrl.origin,
    settingsUrl: `${deps.publicUrl}/dashboard/settings`,
  };
}

/** How long the browser has to answer a ceremony: WebAuthn's own default timeout is 5 minutes. */
export const CHALLENGE_SECONDS = 300;

export const PASSKEY_MSG = {
  notVerified: 'The passkey could not be verified. Please try again.',
  staleChallenge: 'That passkey request has expired or was already used. Please try again.',
  notYours: 'This passkey is not registered to your account.',
  needsTwoFactor:
    'Turn on two-factor authentication first: a passkey is a second factor beside your authenticator app.',
  adminsUsePasskey:
    'Admins must confirm with a passkey on this installation: authenticator codes are not accepted.',
  lastAdminPasskey:
    'Admins must sign in with a passkey on this installation: add another passkey before removing your last one.',
  alreadyRegistered: 'This passkey is already registered.',
  unknown: 'Unknown passkey.',
} as const;

export function present(row: PasskeyRow): TPasskey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}

/** Whether this installation holds the session's user, an admin, to passkeys (decision 0014). */
export async function adminsMustUsePasskey(
  ctx: PasskeysContext,
  s: Pick<SessionContext, 'isAdmin'>,
  client?: pg.PoolClient,
): Promise<boolean> {
  if (!s.isAdmin) return false;
  return (await ctx.settings.all(client)).get('admins_require_passkey') === 'true';
}
