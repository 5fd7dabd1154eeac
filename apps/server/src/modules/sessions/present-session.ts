import type { TSession } from '@coffer/shared';
import { needsTwoFactor, requiresTwoFactor } from '@server/plugins/gate';
import type { SessionContext } from './sessions.repository';

export function presentSession(s: SessionContext): TSession {
  return {
    user: {
      id: s.userId,
      email: s.email,
      isAdmin: s.isAdmin,
      staffRoles: s.staffRoles,
      registeredAt: s.registeredAt.toISOString(),
    },
    twoFactor: {
      required: requiresTwoFactor(s),
      enabled: s.twoFactorEnabled,
      verified: !needsTwoFactor(s),
    },
    hasRecoveryPhrase: s.hasRecoveryPhrase,
    firstSignIn: s.firstSignIn,
    expiry: {
      idleMinutes: s.expiry.idleMinutes,
      idleExpiresAt: s.expiry.idleExpiresAt.toISOString(),
      absoluteExpiresAt: s.expiry.absoluteExpiresAt.toISOString(),
      secondsLeft: s.expiry.secondsLeft,
    },
  };
}
