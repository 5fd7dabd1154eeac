/** Security holds and account freezes: their front door (see ../README.md). */
export { securityHoldRoutes } from './security-hold.routes';
export {
  createSecurityHold,
  type HoldEvent,
  holdActive,
  type SecurityHold,
} from './security-hold.service';
