import type { TWalletsResponse } from '@coffer/shared';
import { changeDirection, formatChange, formatUsd } from '@coffer/shared';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { cn } from '@web/lib/cn';
import { changeClass } from '@web/lib/money/format';
import { ArrowRight, TrendingDown, TrendingUp } from 'lucide-react';
import { Link } from 'react-router';

/**
 * The portfolio total with its real 24 h change: the value now against the same balances
 * at prices 24 h ago, or '—' when that is not known (product.md M3).
 */
export function PortfolioCard({ data }: { data: TWalletsResponse }) {
  const direction = changeDirection(data.change24hPct);
  const Icon = direction === 'up' ? TrendingUp : direction === 'down' ? TrendingDown : null;

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <h2 className="text-sm font-medium text-muted">Total Portfolio Value</h2>
        <Link
          to="/asset-selection"
          className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-primary hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          Market prices
          <ArrowRight className="h-4 w-4" aria-hidden />
        </Link>
      </CardHeader>
      <CardContent className="space-y-2">
        <p className="wrap-anywhere text-3xl font-bold tabular-nums tracking-tight text-fg sm:text-4xl">
          {formatUsd(data.totalUsd)}
        </p>
        <p
          className={cn(
            'flex items-center gap-1.5 text-sm font-medium',
            changeClass(data.change24hPct),
          )}
        >
          {Icon ? <Icon className="h-4 w-4" aria-hidden /> : null}
          <span className="tabular-nums">{formatChange(data.change24hPct)}</span>
          <span className="font-normal text-muted">
            {data.change24hPct === null ? '24 h change not available' : 'in the last 24 h'}
          </span>
        </p>
        <p className="text-xs text-muted">Includes staking rewards credited to your ETH balance.</p>
      </CardContent>
    </Card>
  );
}
