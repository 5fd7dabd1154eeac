import {
  formatDateTime,
  formatUsd,
  priceSourceWords,
  SETTINGS_MSG,
  type TPriceSyncStatus,
  type TSyncPrices,
} from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { useCan } from '@web/lib/staff';
import { RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { usePriceSync } from '../api/get-price-sync';
import { useSyncPrices } from '../api/sync-prices';

const walletCount = (n: number) => `${n} wallet value${n === 1 ? '' : 's'} updated`;

function when(iso: string | null): string {
  return iso ? formatDateTime(iso) : 'never';
}

function PriceList({ prices }: { prices: TSyncPrices }) {
  return (
    <dl className="grid grid-cols-3 gap-2">
      {(['BTC', 'ETH', 'USDT'] as const).map((symbol) => (
        <div key={symbol} className="rounded-lg bg-surface-2 p-3">
          <dt className="text-xs font-medium text-muted">{symbol}</dt>
          <dd className="truncate font-semibold tabular-nums text-fg">
            {prices[symbol] ? formatUsd(prices[symbol]) : '—'}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The prices wallets are valued at now, and where they came from, in the customer's words. */
function CurrentPrices({ current }: { current: TPriceSyncStatus['current'] }) {
  const words = priceSourceWords(current.source, current.pricesAt);
  return (
    <section aria-labelledby="current-prices" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="current-prices" className="text-sm font-semibold text-fg">
          Prices in use
        </h3>
        <Badge variant={current.source === 'live' ? 'success' : 'destructive'}>{words.label}</Badge>
        {current.pricesAt ? (
          <span className="text-xs text-muted">as of {when(current.pricesAt)}</span>
        ) : null}
      </div>
      {words.detail ? <p className="text-sm text-muted">{words.detail}</p> : null}
      <PriceList prices={current.prices} />
    </section>
  );
}

/** the wallet price sync card, honest about where the prices came from. */
export function PriceSyncCard() {
  const status = usePriceSync();
  const sync = useSyncPrices();
  const maySync = useCan()('prices.sync');

  function onSync() {
    sync.mutate(undefined, {
      onSuccess: (result) => {
        if (result.success) {
          toast.success(SETTINGS_MSG.syncDone, {
            description: `${walletCount(result.walletsUpdated)}.`,
          });
        } else {
          toast.error(SETTINGS_MSG.syncFailed, {
            description: result.error ?? SETTINGS_MSG.syncFailedFallback,
          });
        }
      },
      onError: (err) => {
        toast.error(SETTINGS_MSG.syncFailed, {
          description: errorMessage(err, SETTINGS_MSG.syncFailedFallback),
        });
      },
    });
  }

  const current = status.data?.current;
  const last = status.data?.lastSync;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <CardTitle>Wallet Price Sync</CardTitle>
          <CardDescription>
            Fetches market prices now and revalues every customer wallet in US dollars (USDT and
            USDC at $1).
          </CardDescription>
        </div>
        {maySync ? (
          <Button onClick={onSync} disabled={sync.isPending}>
            <RefreshCw
              className={cn('h-4 w-4', sync.isPending && 'animate-spin motion-reduce:animate-none')}
              aria-hidden
            />
            {sync.isPending ? 'Syncing...' : 'Sync Wallet Prices'}
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="space-y-4">
        {status.isPending ? (
          <Spinner label="Loading prices" />
        ) : status.isError ? (
          <p role="alert" className="text-sm text-danger">
            Could not load the price status: {errorMessage(status.error, 'request failed')}
          </p>
        ) : (
          <>
            {current ? <CurrentPrices current={current} /> : null}
            <section aria-labelledby="last-sync" className="space-y-2">
              <h3 id="last-sync" className="text-sm font-semibold text-fg">
                Last sync
              </h3>
              {last ? (
                <>
                  <p className="text-xs text-muted">
                    {when(last.at)}
                    {last.actorEmail ? ` by ${last.actorEmail}` : ''} ·{' '}
                    {walletCount(last.walletsUpdated)}
                  </p>
                  <PriceList prices={last.prices} />
                </>
              ) : (
                <p className="text-sm text-muted">No wallet price sync yet.</p>
              )}
            </section>
          </>
        )}
        {sync.data && !sync.data.success ? (
          <p role="alert" className="text-sm text-danger">
            {sync.data.error ?? SETTINGS_MSG.syncFailedFallback}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
