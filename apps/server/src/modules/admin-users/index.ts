/** The users screen's front door (see ../README.md). */
export { adminUsersRoutes, createAdminUsersService } from './admin-users.routes';
