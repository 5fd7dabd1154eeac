import { adminKeys } from '@web/lib/query-keys';

export const adminChainsKeys = {
  chains: () => ['admin', 'chains'] as const,
  // Under the payouts root, so a batch built or paid on the Payouts screen refreshes it.
  payoutFunds: () => [...adminKeys.payouts(), 'ethereum'] as const,
};
