/** The settings screen's front door (see ../README.md). */
export { adminSettingsRoutes } from './admin-settings.routes';
