import type { TPortfolioHistoryResponse } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { dashboardKeys, type TPortfolioRange } from './keys';

export type { TPortfolioRange } from './keys';

export const PORTFOLIO_RANGES: readonly TPortfolioRange[] = ['24h', '7d', '30d', '1y'];

export function getPortfolioHistory(
  range: TPortfolioRange,
  signal?: AbortSignal,
): Promise<TPortfolioHistoryResponse> {
  return api.get<TPortfolioHistoryResponse>(`/api/portfolio/history?range=${range}`, signal);
}

export const portfolioHistoryQueryOptions = (range: TPortfolioRange) =>
  queryOptions({
    queryKey: dashboardKeys.portfolioHistory(range),
    queryFn: ({ signal }) => getPortfolioHistory(range, signal),
    staleTime: 60_000,
  });

/** The portfolio's USD value over the range; the previous range stays shown while loading. */
export function usePortfolioHistory(range: TPortfolioRange) {
  return useQuery({ ...portfolioHistoryQueryOptions(range), placeholderData: keepPreviousData });
}
