import type { TPortfolioHistoryResponse, TWalletsResponse } from '@coffer/shared';
import { listWallets } from './list-wallets';
import { portfolioHistory } from './portfolio-history';
import type { WalletsContext } from './wallets-context';

/**
 * The dashboard's wallets and the portfolio chart, composed: each is its own file taking
 * the shared context (`wallets-context.ts`).
 */
export function createWalletsService(deps: WalletsContext) {
  const ctx = deps;
  return {
    /** GET /api/wallets: one query for the wallets, prices from memory. */
    list: (userId: string): Promise<TWalletsResponse> => listWallets(ctx, userId),

    /** The portfolio's USD value over a range (GET /api/portfolio/history). */
    history: (
      userId: string,
      range: TPortfolioHistoryResponse['range'],
    ): Promise<TPortfolioHistoryResponse> => portfolioHistory(ctx, userId, range),
  };
}

export type WalletsService = ReturnType<typeof createWalletsService>;
