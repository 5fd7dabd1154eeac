/**
 * The customer's money queries: what the top bar and several features read, and what a
 * ledger change refreshes. History and the dashboard build their keys under
 * `transactions` and `portfolioHistory`.
 */
export const moneyKeys = {
  wallets: () => ['wallets'] as const,
  staking: () => ['staking'] as const,
  prices: () => ['prices'] as const,
  status: () => ['money-status'] as const,
  depositAddresses: () => ['deposit-addresses'] as const,
  transactions: () => ['transactions'] as const,
  portfolioHistory: () => ['portfolio-history'] as const,
};
