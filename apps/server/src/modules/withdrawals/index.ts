/**
 * Withdrawal requests, the customer's cancellation and staff's completion of them: the
 * front door of this module.
 */

export { CANCELLED_FOR_STAFF, cancelRefusal, isCancelledByOwner } from './cancel-rules';
export { createWithdrawalsService, type WithdrawalsService } from './withdrawals.service';
