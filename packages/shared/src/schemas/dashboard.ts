import { z } from 'zod';
import { ZFirstRunResponse } from './first-run';
import {
  type TPortfolioHistoryResponse,
  ZMoneyStatus,
  ZPortfolioHistoryResponse,
  ZPricesResponse,
  ZStakingResponse,
  ZWalletsResponse,
} from './money';
import { ZPublicInfo } from './public';

/** The period the dashboard's chart opens on; the dashboard read brings this one along. */
export const DASHBOARD_CHART_RANGE: TPortfolioHistoryResponse['range'] = '7d';

/**
 * Everything the dashboard shows on arrival, in one answer (GET /api/dashboard), so the page
 * needs one request after the session rather than a chain of them. Each part is exactly what
 * its own endpoint answers, so the web app files each under that endpoint's query.
 */
export const ZDashboardResponse = z.object({
  wallets: ZWalletsResponse,
  prices: ZPricesResponse,
  staking: ZStakingResponse,
  moneyStatus: ZMoneyStatus,
  /** The portfolio's value over DASHBOARD_CHART_RANGE. */
  portfolioHistory: ZPortfolioHistoryResponse,
  /** The support link the portal menu shows, among the operator's public figures. */
  publicInfo: ZPublicInfo,
  /** The first-run checklist (the page shows it to customers only). */
  firstRun: ZFirstRunResponse,
});
export type TDashboardResponse = z.infer<typeof ZDashboardResponse>;
