import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { ADDRESS_COPIED_TOAST, useCopied } from '@web/lib/clipboard';
import { cn } from '@web/lib/cn';
import { useDepositAddresses } from '@web/lib/money/get-deposit-addresses';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DepositAddressCard } from './deposit-address-card';
import { RequestAddresses } from './request-addresses';

const STEPS = [
  {
    title: 'Copy an address',
    text: 'Pick the asset and network you want to deposit and copy its address.',
  },
  {
    title: 'Send from an external wallet',
    text: 'Paste the address into your other wallet or exchange and send the asset on that network.',
  },
  {
    title: 'Wait for confirmation',
    text: 'Your balance updates once the deposit is confirmed on the blockchain.',
  },
] as const;

function HowToDeposit() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>How to Deposit</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-4 md:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="flex gap-3">
              <span
                aria-hidden
                className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-fg"
              >
                {i + 1}
              </span>
              <div>
                <p className="font-medium text-fg">{step.title}</p>
                <p className="text-sm text-muted">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

/**
 * /dashboard/deposit: every active deposit address of the customer, and the assets without one
 * (their chain is not watched) to ask staff for.
 */
export default function DepositPage() {
  const addresses = useDepositAddresses();
  const { copied, copy } = useCopied(ADDRESS_COPIED_TOAST);
  const refreshing = addresses.isFetching;

  let body: ReactNode;
  if (addresses.isPending) {
    body = <PageSpinner text="Loading deposit addresses..." />;
  } else if (addresses.isError) {
    const message =
      addresses.error instanceof ApiError && addresses.error.code === 'UNAUTHENTICATED'
        ? 'You must be logged in to view deposit addresses'
        : errorMessage(addresses.error, 'Failed to load deposit addresses');
    body = (
      <Card>
        <CardContent className="flex flex-col items-start gap-3 pt-5" role="alert">
          <p className="text-danger">Error: {message}</p>
          <Button variant="outline" onClick={() => void addresses.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden />
            Retry
          </Button>
        </CardContent>
      </Card>
    );
  } else if (!addresses.data.enabled) {
    body = (
      <Alert variant="warning" role="status" title="Deposits are paused">
        {addresses.data.message ?? 'Deposits are switched off for now. Please try again later.'}
      </Alert>
    );
  } else if (addresses.data.addresses.length === 0) {
    body = (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 pt-10 pb-10 text-center">
          <p className="font-medium text-fg">No deposit addresses available</p>
          {addresses.data.requestable.length > 0 ? (
            <p className="text-sm text-muted">
              Request one below for the asset you want to deposit.
            </p>
          ) : null}
          <Button variant="outline" onClick={() => void addresses.refetch()} disabled={refreshing}>
            <RefreshCw className={cn('h-4 w-4', refreshing && 'animate-spin')} aria-hidden />
            Refresh Addresses
          </Button>
        </CardContent>
      </Card>
    );
  } else {
    body = (
      <ul className="grid gap-4 md:grid-cols-2">
        {addresses.data.addresses.map((address) => (
          <li key={address.id}>
            <DepositAddressCard
              address={address}
              copied={copied === address.id}
              onCopy={() => void copy(address.id, address.address)}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start gap-3">
        <Button asChild variant="ghost" size="sm">
          <Link to="/dashboard">
            <ArrowLeft className="h-4 w-4" aria-hidden />
            Back
          </Link>
        </Button>
        <div className="min-w-0 flex-1 basis-48">
          <h1 className="text-2xl font-bold text-fg">Deposit</h1>
          <p className="text-muted">Send cryptocurrency to these addresses</p>
        </div>
        <Button
          variant="outline"
          onClick={() => void addresses.refetch()}
          disabled={refreshing}
          aria-busy={refreshing}
        >
          <RefreshCw className={cn('h-4 w-4', refreshing && 'animate-spin')} aria-hidden />
          Refresh
        </Button>
      </header>
      {body}
      {!addresses.isError && addresses.data?.enabled && addresses.data.requestable.length > 0 ? (
        <RequestAddresses items={addresses.data.requestable} />
      ) : null}
      <HowToDeposit />
    </div>
  );
}
