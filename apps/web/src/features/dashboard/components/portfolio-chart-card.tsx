import { DASHBOARD_CHART_RANGE } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { RefreshCw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import {
  PORTFOLIO_RANGES,
  type TPortfolioRange,
  usePortfolioHistory,
} from '../api/get-portfolio-history';
import { PortfolioChart } from './portfolio-chart';

const CHART_HEIGHT = 'h-64';

const RANGE_NAMES: Record<TPortfolioRange, string> = {
  '24h': 'last 24 hours',
  '7d': 'last 7 days',
  '30d': 'last 30 days',
  '1y': 'last year',
};

function ChartPlaceholder({ children }: { children?: ReactNode }) {
  return (
    <div className={cn(CHART_HEIGHT, 'flex items-center justify-center gap-2 text-sm text-muted')}>
      {children ?? <Spinner label="Loading the chart" />}
    </div>
  );
}

/** The portfolio's value over 24 h, 7 or 30 days, or a year. */
export function PortfolioChartCard() {
  const [range, setRange] = useState<TPortfolioRange>(DASHBOARD_CHART_RANGE);
  const history = usePortfolioHistory(range);
  const points = history.data?.points ?? [];

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Portfolio value</CardTitle>
        <fieldset className="flex gap-1 rounded-lg bg-surface-2 p-1">
          <legend className="sr-only">Period shown</legend>
          {PORTFOLIO_RANGES.map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={r === range}
              onClick={() => setRange(r)}
              className={cn(
                'rounded-md px-3 py-1 text-sm font-medium transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary',
                r === range ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
              )}
            >
              {r}
            </button>
          ))}
        </fieldset>
      </CardHeader>
      <CardContent aria-busy={history.isFetching}>
        {history.isPending ? (
          <ChartPlaceholder />
        ) : history.isError && !history.data ? (
          <ChartPlaceholder>
            <div role="alert" className="flex flex-col items-center gap-3 text-center">
              <p>{errorMessage(history.error, 'Failed to load the portfolio history')}</p>
              <Button variant="outline" size="sm" onClick={() => void history.refetch()}>
                <RefreshCw className="h-4 w-4" aria-hidden />
                Retry
              </Button>
            </div>
          </ChartPlaceholder>
        ) : points.length === 0 ? (
          <ChartPlaceholder>
            <p>No portfolio history for the {RANGE_NAMES[range]} yet.</p>
          </ChartPlaceholder>
        ) : (
          <PortfolioChart
            points={points}
            range={history.data?.range ?? range}
            className={CHART_HEIGHT}
          />
        )}
      </CardContent>
    </Card>
  );
}
