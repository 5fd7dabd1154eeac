import type { TPayoutChain } from '@coffer/shared';
import { adminKeys } from '@web/lib/query-keys';

export const adminPayoutsKeys = {
  chain: (chain: TPayoutChain) => [...adminKeys.payouts(), chain] as const,
};
