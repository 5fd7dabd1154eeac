import { moneyKeys } from '@web/lib/money/keys';

export const historyKeys = {
  list: () => [...moneyKeys.transactions(), 'list'] as const,
};
