/**
 * The ledger's front door: the only thing other modules import from the ledger. Money
 * moves through `createLedger()`'s methods, in the caller's database transaction; the
 * repository behind them is private to this folder (a dependency rule in the test suite
 * holds it so).
 */

export type { PendingDepositInput } from './chain-deposits';
export { IDEMPOTENCY_HEADER, requestHash, runOnce, type StoredAnswer } from './idempotency';
export type { TDirection, TStatus } from './ledger.effects';
export type { TransactionRow, WalletRow } from './ledger.repository';
export { createLedger, type Ledger } from './ledger.service';
export { createLedgerCheck, type LedgerCheck, type LedgerCheckResult } from './ledger-check';
export type { BalanceChangeHook, LedgerChangeHook } from './ledger-context';
export { insufficientBalance } from './ledger-rules';
export type { PostFiatInput, PostInput } from './post-transaction';
export { presentTransaction, trimDecimal, usdShown } from './present-transaction';
export type { Revision, RowChange } from './revise-transaction';
