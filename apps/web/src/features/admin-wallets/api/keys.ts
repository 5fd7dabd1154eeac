import { adminKeys } from '@web/lib/query-keys';

export const adminWalletsKeys = {
  all: () => ['admin', 'wallets'] as const,
  user: (userId: string) => [...adminWalletsKeys.all(), userId] as const,
  // Under the shared deposit-address root, so a change made on the addresses screen refreshes it.
  userDepositAddresses: (userId: string) =>
    [...adminKeys.depositAddresses(), 'user', userId] as const,
};
