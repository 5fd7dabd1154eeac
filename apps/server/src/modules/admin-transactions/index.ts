/** The admin transactions screen's front door (see ../README.md). */
export { adminTransactionsRoutes } from './admin-transactions.routes';
export {
  type AdminTransactionsService,
  createAdminTransactionsService,
} from './admin-transactions.service';
