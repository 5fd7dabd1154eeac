import { moneyKeys } from '@web/lib/money/keys';
import type { THistoryView } from './history-view';

export const historyKeys = {
  /** Every page of the history, whatever its filters: what a ledger change refreshes. */
  all: () => [...moneyKeys.transactions(), 'list'] as const,
  /** One page: the filters, search, sort and position the URL holds. */
  page: (view: THistoryView) => [...historyKeys.all(), view] as const,
};
