/** The operator's money switches and daily limit: their front door (see ../README.md). */

export { moneyControlsRoutes } from './money-controls.routes';
export {
  createMoneyControls,
  formatUsd,
  MONEY_MSG,
  type MoneyControls,
  type MoneySettings,
} from './money-controls.service';
export { CUSTOMER_ERRORS, idempotencyKeyOf } from './money-http';
