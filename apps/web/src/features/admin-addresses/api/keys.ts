import { adminKeys } from '@web/lib/query-keys';

export const adminAddressesKeys = {
  list: (q: string) => [...adminKeys.depositAddresses(), 'all', q] as const,
};
