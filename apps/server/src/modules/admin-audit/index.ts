/** The audit log screen's front door (see ../README.md). */
export { adminAuditRoutes } from './admin-audit.routes';
