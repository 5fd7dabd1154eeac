/** The account's security activity log: its front door (see ../README.md). */
export { securityLogRoutes } from './security-log.routes';
export {
  createSecurityLog,
  type SecurityEventInput,
  type SecurityLog,
} from './security-log.service';
