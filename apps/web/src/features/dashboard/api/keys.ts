import { moneyKeys } from '../../../lib/money/keys';
import type { TPortfolioRange } from './get-portfolio-history';

export const dashboardKeys = {
  portfolioHistory: (range: TPortfolioRange) => [...moneyKeys.portfolioHistory(), range] as const,
};
