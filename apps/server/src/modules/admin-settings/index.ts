/** The settings screen's front door (see ../README.md). */
export { adminSettingsRoutes } from './admin-settings.routes';
export { type AdminSettingsService, createAdminSettingsService } from './admin-settings.service';
