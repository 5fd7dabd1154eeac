/** Server sessions: their front door (see ../README.md). */
export { endSessions } from './end-sessions';
export { presentSession } from './present-session';
export { limitsOf, type SessionLimits } from './session-limits';
export type { SessionContext, SessionExpiry } from './sessions.repository';
export { createSessions, type Sessions } from './sessions.service';
