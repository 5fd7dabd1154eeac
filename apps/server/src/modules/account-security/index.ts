/** Sessions the customer controls, password change, new-device mail: the front door (see ../README.md). */
export { accountSecurityRoutes } from './account-security.routes';
export {
  type AccountSecurityService,
  createAccountSecurityService,
} from './account-security.service';
export { deviceLabel } from './device-label';
