/**
 * The ledger's front door: the only thing other modules import from the ledger. Money
 * moves through `createLedger()`'s methods, in the caller's database transaction; the
 * repository behind them is private to this folder (a dependency rule in the test suite
 * holds it so).
 */
export { IDEMPOTENCY_HEADER, requestHash, runOnce, type StoredAnswer } from './idempotency';
export type { TDirection, TStatus } from './ledger.effects';
export type { TransactionRow, WalletRow } from './ledger.repository';
export {
  type BalanceChangeHook,
  createLedger,
  insufficientBalance,
  type Ledger,
  type LedgerChangeHook,
  type PendingDepositInput,
  type PostFiatInput,
  type PostInput,
  type Revision,
  type RowChange,
} from './ledger.service';
export { createLedgerCheck, type LedgerCheck, type LedgerCheckResult } from './ledger-check';
export { presentTransaction, trimDecimal, usdShown } from './present-transaction';
