import type { TSession } from '@coffer/shared';
import { needsTwoFactor } from '../../plugins/gate';
import type { SessionContext } from './sessions.repository';

export function presentSession(s: SessionContext): TSession {
  return {
    user: {
      id: s.userId,
      email: s.email,
      isAdmin: s.isAdmin,
      registeredAt: s.registeredAt.toISOString(),
    },
    twoFactor: {
      required: s.twoFactorRequired,
      enabled: s.twoFactorEnabled,
      verified: !needsTwoFactor(s),
    },
    hasRecoveryPhrase: s.hasRecoveryPhrase,
  };
}
