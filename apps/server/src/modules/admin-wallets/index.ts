/** The wallets and deposit addresses screens' front door (see ../README.md). */
export { adminWalletsRoutes } from './admin-wallets.routes';
export { type AdminWalletsService, createAdminWalletsService } from './admin-wallets.service';
