/** Server sessions: their front door (see ../README.md). */
export { endSessions } from './end-sessions';
export { presentSession } from './present-session';
export { limitsOf, type SessionLimits } from './session-limits';
export {
  createSessionsRepository,
  type SessionContext,
  type SessionExpiry,
  type SessionsRepository,
} from './sessions.repository';
