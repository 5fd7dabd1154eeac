import { priceSourceWords } from '@coffer/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { EmailText } from '@web/components/ui/email-text';
import { PageSpinner } from '@web/components/ui/spinner';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { pricesQueryOptions } from '@web/lib/money/get-prices';
import { useWallets } from '@web/lib/money/get-wallets';
import { greetingFor, useSession } from '@web/lib/session';
import { RefreshCw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useOutletContext } from 'react-router';
import { toast } from 'sonner';
import { AssetList } from './asset-list';
import { FirstRunCard } from './first-run-card';
import { PortfolioCard } from './portfolio-card';
import { PortfolioChartCard } from './portfolio-chart-card';
import { StakingBoard } from './staking-board';

/** The part of the portal layout's outlet context this page reads. */
type PortalContext = { user: { email: string } | null } | undefined;

function walletErrorText(err: unknown): string {
  if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') {
    return 'You must be logged in to view wallet data';
  }
  return errorMessage(err, 'Failed to load wallet data');
}

/** /dashboard: portfolio, assets, value over time and the ETH staking board. */
export default function DashboardPage() {
  const email = useOutletContext<PortalContext>()?.user?.email;
  const session = useSession();
  const wallets = useWallets();
  // The wallets say where their prices came from; the prices, asked only when they are not
  // live, say how old they are.
  const stale = wallets.data !== undefined && wallets.data.priceSource !== 'live';
  const pricesAt = useQuery({ ...pricesQueryOptions(), enabled: stale }).data?.updatedAt ?? null;

  // One toast per failure streak: the balances refresh every 30 s and a server that stays
  // down should not stack up toasts.
  const failing = useRef(false);
  useEffect(() => {
    if (wallets.isError && !failing.current) {
      console.error('Loading the wallets failed', wallets.error);
      toast.error('Error', { description: 'Failed to fetch wallet data. Please try again.' });
    }
    failing.current = wallets.isError;
  }, [wallets.isError, wallets.error]);

  const data = wallets.data;
  const ethPrice = data?.wallets.find((w) => w.assetId === 'ETH')?.priceUsd ?? null;

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-fg">{greetingFor(session.data)}</h1>
        {email ? (
          <p className="text-muted">
            <EmailText email={email} />
          </p>
        ) : null}
      </header>

      {/* A new customer's first steps, until they are done or dismissed. */}
      <FirstRunCard />

      {data ? (
        <>
          {data.priceSource !== 'live' ? (
            <Alert variant="warning" role="status">
              {priceSourceWords(data.priceSource, pricesAt).detail}
            </Alert>
          ) : null}
          <div className="grid gap-6 xl:grid-cols-5">
            <div className="space-y-6 xl:col-span-2">
              <PortfolioCard data={data} />
            </div>
            <div className="xl:col-span-3">
              <PortfolioChartCard />
            </div>
          </div>
          <AssetList data={data} />
        </>
      ) : wallets.isError ? (
        <Card>
          <CardContent className="flex flex-col items-start gap-3 pt-5" role="alert">
            <p className="text-danger">{walletErrorText(wallets.error)}</p>
            <Button variant="outline" onClick={() => void wallets.refetch()}>
              <RefreshCw className="h-4 w-4" aria-hidden />
              Try again
            </Button>
          </CardContent>
        </Card>
      ) : (
        <PageSpinner text="Loading your wallet..." />
      )}

      <StakingBoard ethPriceUsd={ethPrice} />
    </div>
  );
}
