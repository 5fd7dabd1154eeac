/** Server sessions: their front door (see ../README.md). */
export { presentSession } from './present-session';
export {
  ABSOLUTE_TIMEOUT_SECONDS,
  createSessionsRepository,
  IDLE_TIMEOUT_SECONDS,
  type SessionContext,
  type SessionsRepository,
} from './sessions.repository';
