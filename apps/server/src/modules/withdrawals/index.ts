/** Withdrawal requests and staff's completion of them: the front door of this module. */
export { createWithdrawalsService, type WithdrawalsService } from './withdrawals.service';
