import {
  ASSETS,
  assetById,
  CUSTOMER_ASSET_IDS,
  formatAssetAmount,
  formatUsd,
  networkLabel,
  type TWallet,
  type TWalletsResponse,
  toMinorOrNull,
} from '@coffer/shared';
import { AssetLogo } from '@web/components/ui/asset-logo';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';

/** The four wallets at zero, shown if the server lists none. */
function defaultWallets(): TWallet[] {
  return CUSTOMER_ASSET_IDS.map((id) => ({
    id: `default-${id}`,
    assetId: id,
    symbol: ASSETS[id].symbol,
    name: ASSETS[id].name,
    network: ASSETS[id].network,
    decimals: ASSETS[id].decimals,
    balance: '0',
    held: '0',
    available: '0',
    // Nothing held is worth nothing at any price.
    usdValue: '0.00',
    balanceFiat: '0',
    priceUsd: null,
    change24hPct: null,
  }));
}

function AssetRow({ wallet }: { wallet: TWallet }) {
  const asset = assetById(wallet.assetId);
  const amount = (value: string, symbol = true) =>
    asset
      ? formatAssetAmount(asset, value, { symbol })
      : `${value} ${symbol ? wallet.symbol : ''}`.trim();
  const held = toMinorOrNull(wallet.held, wallet.decimals) ?? 0n;
  const slug = asset?.slug ?? wallet.assetId.replace('-', '').toLowerCase();

  return (
    <Link
      to={`/dashboard/asset/${slug}`}
      className="flex items-center gap-3 rounded-lg px-2 py-3 transition-colors hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary sm:px-3"
    >
      <AssetLogo symbol={wallet.symbol} />
      {/* The figures sit beside the name, or under it when both do not fit (a phone, a large
          balance): the name and the network always read whole, and on a phone the network
          is what tells the two USDT apart. */}
      <span className="flex min-w-0 flex-1 flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <span className="min-w-0">
          <span className="block font-medium text-fg">{wallet.name}</span>
          <span className="block text-sm text-muted">
            {wallet.symbol} ·{' '}
            <span className="whitespace-nowrap">{networkLabel(wallet.network)}</span>
          </span>
        </span>
        <span className="ml-auto min-w-0 text-right">
          <span className="block wrap-anywhere font-medium tabular-nums text-fg">
            {amount(wallet.balance)}
          </span>
          <span className="block text-sm tabular-nums text-muted">
            {wallet.usdValue !== null ? (
              formatUsd(wallet.usdValue)
            ) : (
              <>
                {formatUsd(wallet.balanceFiat)}
                <span className="sr-only"> (last known value, no current price)</span>
                <span aria-hidden> *</span>
              </>
            )}
          </span>
          {held > 0n ? (
            <span className="block text-xs tabular-nums text-muted">
              {amount(wallet.held, false)} on hold
            </span>
          ) : null}
        </span>
      </span>
      <ChevronRight className="h-4 w-4 shrink-0 text-muted" aria-hidden />
    </Link>
  );
}

/** The customer's wallets; each row opens the asset's page. */
export function AssetList({ data }: { data: TWalletsResponse }) {
  const wallets = data.wallets.length > 0 ? data.wallets : defaultWallets();
  const stale = wallets.some((w) => w.usdValue === null);

  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-3">
        <CardTitle>Your Assets</CardTitle>
        <span className="text-sm text-muted">
          {wallets.length} {wallets.length === 1 ? 'asset' : 'assets'}
        </span>
      </CardHeader>
      <CardContent className="px-2 sm:px-3">
        <ul className="divide-y divide-border">
          {wallets.map((wallet) => (
            <li key={wallet.id}>
              <AssetRow wallet={wallet} />
            </li>
          ))}
        </ul>
        {stale ? (
          <p className="px-2 pt-3 text-xs text-muted sm:px-3">
            * Last known value: no current price for this asset.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
