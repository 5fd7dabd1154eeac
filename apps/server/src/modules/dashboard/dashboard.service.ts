import {
  DASHBOARD_CHART_RANGE,
  type TDashboardResponse,
  type TFirstRunResponse,
  type TMoneyStatus,
  type TPortfolioHistoryResponse,
  type TPricesResponse,
  type TPublicInfo,
  type TStakingResponse,
  type TWalletsResponse,
} from '@coffer/shared';

/**
 * The reads the dashboard is made of, each the one its own endpoint answers with. The
 * composition root hands in the existing services' reads, so the dashboard's figures can
 * never drift from what GET /api/wallets, /api/staking and the others say.
 */
export type DashboardSources = {
  wallets(userId: string): Promise<TWalletsResponse>;
  portfolioHistory(
    userId: string,
    range: TPortfolioHistoryResponse['range'],
  ): Promise<TPortfolioHistoryResponse>;
  staking(userId: string): Promise<TStakingResponse>;
  moneyStatus(userId: string): Promise<TMoneyStatus>;
  prices(): TPricesResponse;
  publicInfo(): Promise<TPublicInfo>;
  firstRun(userId: string): Promise<TFirstRunResponse>;
};

/** GET /api/dashboard: every part of the dashboard at once, read side by side. */
export function createDashboard(sources: DashboardSources) {
  return {
    async read(userId: string): Promise<TDashboardResponse> {
      const [wallets, portfolioHistory, staking, moneyStatus, publicInfo, firstRun] =
        await Promise.all([
          sources.wallets(userId),
          sources.portfolioHistory(userId, DASHBOARD_CHART_RANGE),
          sources.staking(userId),
          sources.moneyStatus(userId),
          sources.publicInfo(),
          sources.firstRun(userId),
        ]);
      return {
        wallets,
        prices: sources.prices(),
        staking,
        moneyStatus,
        portfolioHistory,
        publicInfo,
        firstRun,
      };
    },
  };
}

export type Dashboard = ReturnType<typeof createDashboard>;
