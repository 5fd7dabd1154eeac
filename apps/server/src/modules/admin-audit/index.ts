/** The audit log screen's front door (see ../README.md). */
export { adminAuditRoutes } from './admin-audit.routes';
export { type AdminAuditService, createAdminAuditService } from './admin-audit.service';
