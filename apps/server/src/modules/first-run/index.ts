/** The dashboard's first-run checklist: its front door (see ../README.md). */
export { firstRunRoutes } from './first-run.routes';
export { createFirstRun, type FirstRun } from './first-run.service';
