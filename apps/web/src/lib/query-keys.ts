/**
 * Query keys that several features, or the app's shared code, read or refresh. Each feature
 * keeps its own keys in its `api/keys.ts`, built under these roots where it shares one, so
 * that refreshing a root refreshes every screen below it. One function per key: a key is
 * never written out as a literal array where it is used.
 */
export const appKeys = {
  session: () => ['session'] as const,
  passkeys: () => ['passkeys'] as const,
};

/** Admin roots that more than one admin screen reads or refreshes. */
export const adminKeys = {
  /** Payouts per chain, and the Ethereum payout funds the Chains screen shows. */
  payouts: () => ['admin', 'payouts'] as const,
  /** The transactions list, one transaction and the pending withdrawals. */
  transactions: () => ['admin', 'transactions'] as const,
  /** Every deposit address, and one customer's (the wallet management screen). */
  depositAddresses: () => ['admin', 'deposit-addresses'] as const,
  userDirectory: (q: string) => ['admin', 'user-directory', q] as const,
  /**
   * The changes waiting for a second staff member (the staff home's queue and the menu's
   * count): every screen that proposes one refreshes it.
   */
  changes: () => ['admin', 'changes'] as const,
  /** The staff list: the Staff screen and the users screen's Staff card. */
  staff: () => ['admin', 'staff'] as const,
};
