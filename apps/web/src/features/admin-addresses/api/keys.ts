import { adminKeys } from '@web/lib/query-keys';

export const adminAddressesKeys = {
  list: (q: string) => [...adminKeys.depositAddresses(), 'all', q] as const,
  /** Under the addresses' root: saving an address refreshes the requests it may fulfil. */
  requests: () => [...adminKeys.depositAddresses(), 'requests'] as const,
};
