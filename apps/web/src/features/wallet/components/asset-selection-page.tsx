import {
  assetById,
  changeDirection,
  formatChange,
  formatUsd,
  networkLabel,
  priceSourceWords,
} from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { AssetLogo } from '@web/components/ui/asset-logo';
import { BackLink } from '@web/components/ui/back-link';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { changeClass } from '@web/lib/money/format';
import { usePrices } from '@web/lib/money/get-prices';
import { RefreshCw, TrendingDown, TrendingUp } from 'lucide-react';
import { Link } from 'react-router';

/** /asset-selection: live prices and 24 h change of the assets Coffer holds. */
export default function AssetSelectionPage() {
  const prices = usePrices();
  const listed = (prices.data?.prices ?? []).flatMap((price) => {
    const asset = assetById(price.assetId);
    return asset && !asset.adminOnly ? [{ asset, price }] : [];
  });

  return (
    <div className="space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-fg">Cryptocurrency Overview</h1>
        <p className="text-sm text-muted">Prices in USD, refreshed every 30 seconds.</p>
      </header>

      {prices.isPending ? (
        <PageSpinner text="Loading prices..." />
      ) : prices.isError && !prices.data ? (
        <Card>
          <CardContent className="flex flex-col items-start gap-3 pt-5" role="alert">
            <p className="text-danger">
              Error updating prices: {errorMessage(prices.error, 'Failed to load prices')}
            </p>
            <Button variant="outline" onClick={() => void prices.refetch()}>
              <RefreshCw className="h-4 w-4" aria-hidden />
              Retry
            </Button>
          </CardContent>
        </Card>
      ) : (
        <>
          {prices.data.source !== 'live' ? (
            <Alert variant="warning" role="status">
              {priceSourceWords(prices.data.source, prices.data.updatedAt).detail}
            </Alert>
          ) : null}
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {listed.map(({ asset, price }) => {
              const direction = changeDirection(price.change24hPct);
              const Icon =
                direction === 'up' ? TrendingUp : direction === 'down' ? TrendingDown : null;
              return (
                <li key={asset.id}>
                  <Link
                    to={`/dashboard/asset/${asset.slug}`}
                    className="block h-full rounded-xl border border-border bg-surface p-5 shadow-sm transition-colors hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
                  >
                    <span className="flex items-center gap-3">
                      <AssetLogo symbol={asset.symbol} />
                      <span className="min-w-0">
                        <span className="block font-semibold text-fg">{asset.symbol}</span>
                        <span className="block truncate text-sm text-muted">
                          {asset.name} · {networkLabel(asset.network)}
                        </span>
                      </span>
                    </span>
                    <span className="mt-4 block text-xl font-bold tabular-nums text-fg">
                      {formatUsd(price.priceUsd)}
                    </span>
                    <span
                      className={cn(
                        'mt-1 flex items-center gap-1 text-sm font-medium tabular-nums',
                        changeClass(price.change24hPct),
                      )}
                    >
                      {Icon ? <Icon className="h-4 w-4" aria-hidden /> : null}
                      {formatChange(price.change24hPct)}
                      <span className="font-normal text-muted">
                        {price.change24hPct === null ? '24 h change not available' : '24 h'}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
