import {
  depositAssetTitle,
  formatAssetAmount,
  formatChange,
  formatUsd,
  networkLabel,
  priceSourceWords,
  type TAsset,
  type TRequestableAsset,
  toMinorOrNull,
} from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { AssetLogo } from '@web/components/ui/asset-logo';
import { BackLink } from '@web/components/ui/back-link';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent, DialogTrigger } from '@web/components/ui/dialog';
import { QrCode } from '@web/components/ui/qr-code';
import { RelativeTime } from '@web/components/ui/relative-time';
import { PageSpinner, Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { ADDRESS_COPIED_TOAST, useCopied } from '@web/lib/clipboard';
import { cn } from '@web/lib/cn';
import { changeClass } from '@web/lib/money/format';
import { depositAddressFor, useDepositAddresses } from '@web/lib/money/get-deposit-addresses';
import { usePrices } from '@web/lib/money/get-prices';
import { useWallets } from '@web/lib/money/get-wallets';
import { resolveAsset } from '@web/lib/resolve-asset';
import { ArrowUpFromLine, Check, Copy, QrCode as QrIcon, RefreshCw } from 'lucide-react';
import { Link, useParams } from 'react-router';

/** Shown on the asset page; the server does not refuse smaller deposits. */
const MINIMUM_DEPOSIT = '0.001';

function BackToDashboard() {
  return <BackLink to="/dashboard">Back to Dashboard</BackLink>;
}

function PriceCard({ asset }: { asset: TAsset }) {
  const prices = usePrices();
  const wallets = useWallets();
  const price = prices.data?.prices.find((p) => p.assetId === asset.id);
  const wallet = wallets.data?.wallets.find((w) => w.assetId === asset.id);
  const priceUsd = price?.priceUsd ?? wallet?.priceUsd ?? null;
  const change = price ? price.change24hPct : (wallet?.change24hPct ?? null);

  return (
    <Card>
      <CardHeader>
        <h2 className="text-sm font-medium text-muted">Current Price</h2>
      </CardHeader>
      <CardContent className="space-y-1">
        {prices.isPending && !wallet ? (
          <Spinner label="Loading the price" />
        ) : (
          <>
            <p className="text-2xl font-bold tabular-nums text-fg">{formatUsd(priceUsd)}</p>
            <p className={cn('text-sm font-medium tabular-nums', changeClass(change))}>
              {formatChange(change)}{' '}
              <span className="font-normal text-muted">
                {change === null ? '24 h change not available' : '24 h'}
              </span>
            </p>
          </>
        )}
        {prices.data && prices.data.source !== 'live' ? (
          <p className="pt-1 text-xs text-muted">
            {priceSourceWords(prices.data.source, prices.data.updatedAt).detail}
          </p>
        ) : null}
        {prices.isError && !prices.data ? (
          <p className="pt-1 text-xs text-danger">Error updating prices</p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function BalanceCard({ asset }: { asset: TAsset }) {
  const wallets = useWallets();
  const wallet = wallets.data?.wallets.find((w) => w.assetId === asset.id);
  const held = wallet ? (toMinorOrNull(wallet.held, wallet.decimals) ?? 0n) : 0n;

  return (
    <Card>
      <CardHeader>
        <h2 className="text-sm font-medium text-muted">Your Balance</h2>
      </CardHeader>
      <CardContent className="space-y-1">
        {wallets.isError && !wallets.data ? (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(wallets.error, 'Failed to load wallet data')}
          </p>
        ) : (
          <>
            <p className="wrap-anywhere text-2xl font-bold tabular-nums text-fg">
              {formatAssetAmount(asset, wallet?.balance ?? '0')}
            </p>
            <p className="text-sm tabular-nums text-muted">
              {formatUsd(wallet ? (wallet.usdValue ?? wallet.balanceFiat) : '0')}
              {wallet && wallet.usdValue === null ? ' (last known value)' : ''}
            </p>
            {wallet && held > 0n ? (
              <p className="text-xs tabular-nums text-muted">
                {formatAssetAmount(asset, wallet.available, { symbol: false })} available,{' '}
                {formatAssetAmount(asset, wallet.held, { symbol: false })} on hold for withdrawals
                and bank transfers
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Where no chain gives this asset an address, staff add one on request, from the Deposit
 * page: say so here too, or that the request is already waiting.
 */
function AddressRequestNote({ item }: { item: TRequestableAsset | undefined }) {
  if (!item) return null;
  const title = depositAssetTitle(item.assetId);
  if (item.request) {
    return (
      <p role="status" className="text-fg">
        You requested a {title} address <RelativeTime iso={item.request.requestedAt} />; we'll
        e-mail you when it is ready.
      </p>
    );
  }
  return (
    <p className="text-fg">
      Our team adds {title} addresses on request:{' '}
      <Link
        to="/dashboard/deposit"
        className="font-medium text-primary underline underline-offset-2 hover:no-underline"
      >
        request one on the Deposit page
      </Link>
      .
    </p>
  );
}

function DepositAddressCard({ asset }: { asset: TAsset }) {
  const addresses = useDepositAddresses();
  const { copied, copy } = useCopied(ADDRESS_COPIED_TOAST);
  const address = addresses.data ? depositAddressFor(addresses.data.addresses, asset) : undefined;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Deposit Address</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {addresses.isPending ? (
          <Spinner label="Loading the deposit address" />
        ) : addresses.isError ? (
          <p role="alert" className="text-sm text-danger">
            Error: {errorMessage(addresses.error, 'Failed to load deposit addresses')}
          </p>
        ) : !addresses.data.enabled ? (
          <Alert variant="warning" role="status">
            {addresses.data.message ?? 'Deposits are switched off for now. Please try again later.'}
          </Alert>
        ) : address ? (
          <>
            <p className="text-sm text-muted">
              {asset.symbol} on {networkLabel(address.network || asset.network)}
            </p>
            <p
              translate="no"
              className="wrap-anywhere rounded-md border border-border bg-surface-2 p-3 font-mono text-sm text-fg"
            >
              {address.address}
            </p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button onClick={() => void copy('address', address.address)}>
                {copied === 'address' ? (
                  <Check className="h-4 w-4" aria-hidden />
                ) : (
                  <Copy className="h-4 w-4" aria-hidden />
                )}
                {copied === 'address' ? 'Copied!' : 'Copy Address'}
              </Button>
              <Dialog>
                <DialogTrigger asChild>
                  <Button variant="outline">
                    <QrIcon className="h-4 w-4" aria-hidden />
                    Show QR Code
                  </Button>
                </DialogTrigger>
                <DialogContent
                  title={`${asset.symbol} deposit address`}
                  description={`Scan to send ${asset.symbol} on ${networkLabel(asset.network)} to your Coffer wallet.`}
                  className="max-w-sm"
                >
                  <div className="flex flex-col items-center gap-3">
                    <QrCode
                      value={address.address}
                      label={`QR code of your ${asset.symbol} deposit address`}
                      failedText="The QR code could not be drawn. Copy the address instead."
                    />
                    <p
                      translate="no"
                      className="wrap-anywhere text-center font-mono text-xs text-muted"
                    >
                      {address.address}
                    </p>
                  </div>
                </DialogContent>
              </Dialog>
            </div>
          </>
        ) : (
          <div className="space-y-2 text-sm">
            <p className="text-muted">
              No deposit address available. Please try refreshing or contact support.
            </p>
            <AddressRequestNote
              item={addresses.data.requestable.find((r) => r.assetId === asset.id)}
            />
          </div>
        )}

        <section aria-labelledby="deposit-notes" className="rounded-lg bg-surface-2 p-4">
          <h3 id="deposit-notes" className="text-sm font-semibold text-fg">
            Before you deposit
          </h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted">
            <li>
              Send only {asset.symbol} ({networkLabel(asset.network)}) to this address. Any other
              asset or network sent here may be lost for good.
            </li>
            <li>
              Minimum deposit: {MINIMUM_DEPOSIT} {asset.symbol}.
            </li>
            <li>Deposits appear in your balance after the required network confirmations.</li>
          </ul>
        </section>
      </CardContent>
    </Card>
  );
}

/** /dashboard/asset/{symbol}: price, balance and deposit address of one asset. */
export default function AssetDetailPage() {
  const { symbol } = useParams();
  const asset = resolveAsset(symbol);
  const wallets = useWallets();
  const prices = usePrices();
  const addresses = useDepositAddresses();

  if (!asset) {
    return (
      <div className="space-y-6">
        <BackToDashboard />
        <Card>
          <CardContent className="pt-5">
            <h1 className="text-xl font-semibold text-fg">Asset not found</h1>
            <p className="mt-1 text-sm text-muted">
              Coffer has no wallet for "{symbol ?? ''}". Pick an asset from your dashboard.
            </p>
          </CardContent>
        </Card>
      </div>
    );
  }

  if (wallets.isPending) return <PageSpinner text="Loading your wallet..." />;

  const refreshing = wallets.isFetching || prices.isFetching || addresses.isFetching;
  function refresh() {
    void wallets.refetch();
    void prices.refetch();
    void addresses.refetch();
  }

  return (
    <div className="space-y-6">
      <BackToDashboard />
      <header className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-center gap-4">
          <AssetLogo symbol={asset.symbol} size="lg" />
          <div className="min-w-0">
            <h1 className="text-2xl font-bold text-fg">{asset.name}</h1>
            <p className="text-muted">
              {asset.symbol} · {networkLabel(asset.network)}
            </p>
          </div>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={refresh} disabled={refreshing} aria-busy={refreshing}>
            <RefreshCw className={cn('h-4 w-4', refreshing && 'animate-spin')} aria-hidden />
            Refresh
          </Button>
          <Button asChild variant="secondary">
            <Link to={`/withdraw/${asset.slug}`}>
              <ArrowUpFromLine className="h-4 w-4" aria-hidden />
              Withdraw
            </Link>
          </Button>
        </div>
      </header>
      <div className="grid gap-6 md:grid-cols-2">
        <PriceCard asset={asset} />
        <BalanceCard asset={asset} />
      </div>
      <DepositAddressCard asset={asset} />
    </div>
  );
}
