/** The customer's history: its front door (see ../README.md). */
export { csvCell, csvLine } from './csv';
export { historyRoutes } from './history.routes';
export { createHistoryService, type HistoryService } from './history.service';
