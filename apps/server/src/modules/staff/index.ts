/** Staff managed in the app: its front door (see ../README.md). */
export { staffRoutes } from './staff.routes';
export { createStaffService, type StaffService } from './staff.service';
