/** The dashboard's one read, composed of the other modules' reads: its front door. */
export { dashboardRoutes } from './dashboard.routes';
export { createDashboard, type Dashboard, type DashboardSources } from './dashboard.service';
