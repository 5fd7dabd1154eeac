/**
 * The texts of the admin Transactions screen and withdrawal processing. Every change goes
 * through the ledger and carries a reason (product.md M7).
 */
export const ADMIN_TX_MSG = {
  requiredFields: 'Please fill in all required fields',
  withdrawalAddressRequired: 'Withdrawal address is required for withdrawal transactions',
  withdrawalAddressInvalid: 'Invalid withdrawal address format',
  bankDetailsRequired: 'Account name, account number and BSB number are required',
  reasonRequired: 'Enter the reason for this change; it is kept in the audit log.',
  customerPayoutLocked:
    'The customer confirmed this destination, asset and amount with their own second factor: staff cannot change them. Reject the payout and ask the customer to request it again.',
  dateInvalid: 'Enter a valid date and time',
  dateOutOfRange: 'Enter a date from 3 January 2009 (the first Bitcoin block) up to tomorrow.',
  usdInvalid: 'Enter the USD amount as a number with at most 2 decimals, like 1250.50',
  audInvalid: 'Enter the AUD amount as a number with at most 2 decimals, like 1900.76',
  usdTooLarge: 'The USD amount can have at most 15 whole digits.',
  audTooLarge: 'The AUD amount can have at most 15 whole digits.',
  cryptoTooLarge: 'The crypto amount can have at most 15 whole digits.',
  deleteConfirm: 'Are you sure you want to delete this transaction? This action cannot be undone.',
  empty: 'No transactions found matching your criteria.',
  added: 'Transaction added successfully',
  updated: 'Transaction updated successfully',
  deleted: 'Transaction deleted successfully',
  addFailed: 'Failed to add transaction',
  updateFailed: 'Failed to update transaction',
  deleteFailed: 'Failed to delete transaction',
  payoutPending:
    'A withdrawal or bank transfer is recorded as pending; another admin completes it in Pending withdrawals.',
  fourEyes:
    'You created or edited this request yourself. Another admin must complete it (four-eyes rule).',
  hashRequired: 'Enter the transaction hash of the payout.',
  bankReferenceRequired: 'Enter the bank reference of the payout.',
  rejectReasonRequired: 'Enter the reason the customer will see.',
  payoutCompletedFinal:
    'This payout is final: it was completed. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  payoutRejectedFinal:
    'This payout is final: it was rejected. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  adjustmentFinal:
    'An adjustment is final: it is corrected by a reversing adjustment, never edited or deleted. Edit the wallet balance in Wallet Management with a reason.',
  stakingRewardNoEdit:
    'Staking rewards cannot be edited. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  payoutTypeLocked:
    'A withdrawal or bank transfer stays what it is, and no other transaction can become one. Reject the payout, or add a new transaction.',
  payoutStatusByEdit:
    "A payout's status is not changed by Edit: Complete or Reject it in Pending withdrawals, which tells the customer and checks four eyes.",
  finalRow:
    'This transaction is final and cannot be changed. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  unfundedPayout:
    "This bank transfer was requested before payouts were funded and holds nothing from the customer's balance, so it cannot be paid out. Reject it with a reason: the customer can request it again, paid from a balance.",
  customerPayoutNoDelete:
    "A customer's own payout request is not deleted: Reject it in Pending withdrawals, which releases the hold and tells the customer why.",
  fundedPayoutAmounts:
    "This bank payout is funded from the customer's crypto, which is held for it: its amounts cannot be edited. Reject it and ask the customer for a new request.",
  completedFinal:
    'A completed deposit, buy or sell is final: it is never edited or deleted. Record a correction as a new adjustment that names this transaction, with a reason.',
  correctionTargetRequired:
    'Name the transaction this adjustment corrects: an adjustment only corrects a final transaction.',
  correctionTargetMissing:
    'The transaction to correct was not found: it must be a transaction of the same customer and asset.',
  correctionOnlyAdjustment: 'Only an adjustment names a transaction it corrects.',
  correctionDirectionRequired: 'Choose whether the adjustment credits or debits the balance.',
  ownPayout: 'This payout is from your own customer account: another staff member must decide it.',
} as const;
