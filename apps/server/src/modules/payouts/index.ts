/** Payouts on chain: the front door of this module (see ../README.md). */
export { createPayoutSettlement, type PayoutHooks } from './payout-settlement';
export { payoutsRoutes } from './payouts.routes';
export {
  createPayoutsService,
  type HandCompletion,
  PAYOUT_MSG,
  type PayoutActor,
  type PayoutsService,
} from './payouts.service';
