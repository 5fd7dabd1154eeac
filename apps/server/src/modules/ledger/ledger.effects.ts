/**
 * What one ledger row does to its wallet, as a pure function: the single definition that
 * posting, status changes, edits, deletions and reconciliation all share.
 * - credit, completed: adds the amount to the balance;
 * - debit, pending: holds amount + fee (a withdrawal waiting for staff);
 * - debit, completed: takes amount + fee from the balance;
 * - failed rows, deleted rows and fiat-only rows (direction none): nothing.
 */
export type TStatus = 'pending' | 'completed' | 'failed';
export type TDirection = 'credit' | 'debit' | 'none';

export type LedgerRowState = {
  status: TStatus;
  direction: TDirection;
  amount: bigint;
  fee: bigint;
  deleted: boolean;
};

export type Effect = { balance: bigint; held: bigint };

const NONE: Effect = { balance: 0n, held: 0n };

export function effectOf(row: LedgerRowState): Effect {
  if (row.deleted || row.direction === 'none' || row.status === 'failed') return NONE;
  if (row.direction === 'credit')
    return row.status === 'completed' ? { balance: row.amount, held: 0n } : NONE;
  const total = row.amount + row.fee;
  return row.status === 'completed' ? { balance: -total, held: 0n } : { balance: 0n, held: total };
}

/** The change that turns the effect of `before` into the effect of `after`. */
export function effectDelta(before: LedgerRowState | null, after: LedgerRowState | null): Effect {
  const a = before ? effectOf(before) : NONE;
  const b = after ? effectOf(after) : NONE;
  return { balance: b.balance - a.balance, held: b.held - a.held };
}
