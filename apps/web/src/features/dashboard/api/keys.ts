import type { TPortfolioHistoryResponse } from '@coffer/shared';
import { moneyKeys } from '@web/lib/money/keys';

export type TPortfolioRange = TPortfolioHistoryResponse['range'];

export const dashboardKeys = {
  portfolioHistory: (range: TPortfolioRange) => [...moneyKeys.portfolioHistory(), range] as const,
  firstRun: () => ['first-run'] as const,
  /** The dashboard's one read, whose parts are filed under the keys above and moneyKeys. */
  read: () => ['dashboard'] as const,
};
