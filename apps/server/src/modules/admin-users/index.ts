/** The users screen's front door (see ../README.md). */
export { adminUsersRoutes } from './admin-users.routes';
export { type AdminUsersService, createAdminUsersService } from './admin-users.service';
