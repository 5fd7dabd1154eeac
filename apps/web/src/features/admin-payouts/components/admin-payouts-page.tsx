import {
  type TPayoutChain,
  type TPayoutsOverview,
  type TStepUp,
  ZPayoutChain,
} from '@coffer/shared';
import { CopyableAddress } from '@web/components/admin/copyable-address';
import { PayoutStateBadge } from '@web/components/admin/payout-state-badge';
import { STACKED } from '@web/components/admin/stacked-table';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { useCan } from '@web/lib/staff';
import { RefreshCw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useBuildBatch } from '../api/build-batch';
import { usePayouts } from '../api/get-payouts';
import { BatchCard } from './batch-card';
import { amountText, assetLabel, CHAIN_LABELS, dateText, downloadFile } from './present';
import { ReversedPayouts } from './reversed-payouts';

const CHAINS = ZPayoutChain.options;

/**
 * /dashboard/admin/payouts: each chain's payouts reversed on chain first (each waiting for
 * staff), then its approved withdrawals waiting to be paid, and its batches. Coffer builds
 * the unsigned transaction; the operator signs the file outside Coffer and uploads it back;
 * Coffer checks it pays exactly the batch and broadcasts it.
 */
export default function AdminPayoutsPage() {
  const [params, setParams] = useSearchParams();
  const asked = ZPayoutChain.safeParse(params.get('chain'));
  const chain: TPayoutChain = asked.success ? asked.data : 'bitcoin';
  const payouts = usePayouts(chain);

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-fg">Payouts</h1>
          <p className="text-sm text-muted">
            Approved withdrawals paid on chain: build a batch, sign its file outside Coffer, upload
            the signed file. Refreshed every 15 seconds.
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void payouts.refetch()}
          disabled={payouts.isFetching}
        >
          <RefreshCw
            className={cn(
              'h-4 w-4',
              payouts.isFetching && 'animate-spin motion-reduce:animate-none',
            )}
            aria-hidden
          />
          Refresh
        </Button>
      </header>

      <div role="tablist" aria-label="Chains" className="flex gap-2 border-b border-border">
        {CHAINS.map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            id={`payouts-tab-${value}`}
            aria-selected={chain === value}
            aria-controls={`payouts-panel-${value}`}
            onClick={() => setParams({ chain: value }, { replace: true })}
            className={cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary',
              chain === value
                ? 'border-primary text-fg'
                : 'border-transparent text-muted hover:text-fg',
            )}
          >
            {CHAIN_LABELS[value]}
          </button>
        ))}
      </div>

      <div
        role="tabpanel"
        id={`payouts-panel-${chain}`}
        aria-labelledby={`payouts-tab-${chain}`}
        className="space-y-6"
      >
        {payouts.isPending ? (
          <PageSpinner text="Loading the payouts..." />
        ) : payouts.isError ? (
          <Alert variant="danger" role="alert" title="Could not load the payouts">
            {errorMessage(payouts.error, 'Request failed')}
          </Alert>
        ) : (
          <ChainPayouts overview={payouts.data} />
        )}
      </div>
    </div>
  );
}

function ChainPayouts({ overview }: { overview: TPayoutsOverview }) {
  const label = CHAIN_LABELS[overview.chain];
  return (
    <>
      <ReversedPayouts overview={overview} />
      {overview.nonceGap ? (
        <Alert variant="warning" role="alert" title="Nonce gap">
          <span className="break-words">{overview.nonceGap.message}</span>
        </Alert>
      ) : null}
      {overview.configured ? (
        <Funds overview={overview} />
      ) : (
        <Alert title={`${label} is not configured for payouts`}>
          This chain’s node and key are not configured, so Coffer does not build its payouts: they
          are completed by hash from{' '}
          <Link
            to="/dashboard/admin/transactions"
            className="font-medium text-primary underline underline-offset-2 hover:no-underline"
          >
            Pending withdrawals
          </Link>
          .
        </Alert>
      )}
      <Waiting overview={overview} />
      <Batches overview={overview} />
    </>
  );
}

function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{term}</dt>
      <dd className="min-w-0 text-sm font-medium tabular-nums text-fg">{children}</dd>
    </div>
  );
}

/** Where the payouts are paid from and what it holds. */
function Funds({ overview }: { overview: TPayoutsOverview }) {
  return (
    <Card role="region" aria-labelledby="payout-funds-title">
      <CardHeader>
        <CardTitle id="payout-funds-title">Payout funds</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
          {overview.payoutAddress ? (
            <Figure term={overview.chain === 'ethereum' ? 'Payout address' : 'Change address'}>
              <CopyableAddress
                address={overview.payoutAddress}
                symbol={overview.chain === 'ethereum' ? 'ETH' : 'BTC'}
                className="max-w-[14rem] sm:max-w-[18rem]"
              />
            </Figure>
          ) : null}
          {overview.balances.length === 0 ? (
            <Figure term="Balance">
              <span className="font-normal text-muted">not available from the node</span>
            </Figure>
          ) : (
            overview.balances.map((b) => (
              <Figure
                key={b.assetId}
                term={
                  overview.chain === 'bitcoin'
                    ? 'Spendable BTC (outputs no batch holds)'
                    : `${assetLabel(b.assetId)} balance`
                }
              >
                {amountText(b.assetId, b.amount)}
              </Figure>
            ))
          )}
        </dl>
      </CardContent>
    </Card>
  );
}

/** The approved payouts no batch holds yet, and the button that builds one. */
function Waiting({ overview }: { overview: TPayoutsOverview }) {
  const build = useBuildBatch();
  const mayBuild = useCan()('payouts.build');
  const [asking, setAsking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const label = CHAIN_LABELS[overview.chain];
  const items = overview.waiting;

  async function confirm(stepUp: TStepUp) {
    const done = await build.mutateAsync({ chain: overview.chain, stepUp });
    setAsking(false);
    downloadFile(done.file);
    toast.success('Batch built', { description: `${done.file.fileName} is downloading: sign it.` });
  }

  function failed(err: unknown) {
    // Fee above the cap, not enough funds, nothing waiting: the server says which.
    setAsking(false);
    setRefusal(errorMessage(err, 'Please try again.'));
  }

  return (
    <section aria-labelledby="payouts-waiting-title" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id="payouts-waiting-title" className="text-lg font-semibold text-fg">
            Approved, waiting
          </h2>
          <p className="text-sm text-muted">
            {overview.configured
              ? 'Approved withdrawals no batch holds yet. Build batch puts them in one transaction and downloads its file to sign.'
              : 'Approved withdrawals on this chain: complete each with its hash once paid.'}
          </p>
        </div>
        {overview.configured && mayBuild ? (
          <Button
            onClick={() => {
              setRefusal(null);
              setAsking(true);
            }}
            disabled={items.length === 0 || build.isPending}
          >
            Build batch
          </Button>
        ) : null}
      </div>
      {refusal ? (
        <Alert variant="danger" role="alert" title="No batch was built">
          <span className="whitespace-pre-line break-words">{refusal}</span>
        </Alert>
      ) : null}
      <Card>
        <CardContent className="pt-5">
          {items.length === 0 ? (
            <p className="py-4 text-center text-sm text-muted">
              No approved {label} withdrawals are waiting.
            </p>
          ) : (
            <table className={STACKED.table}>
              <caption className="sr-only">
                Approved {label} withdrawals waiting, oldest first
              </caption>
              <thead className={STACKED.head}>
                <tr>
                  <th className={STACKED.headCell}>Customer</th>
                  <th className={STACKED.headCell}>Asset</th>
                  <th className={cn(STACKED.headCell, 'text-right')}>Amount</th>
                  <th className={STACKED.headCell}>Address</th>
                  <th className={STACKED.headCell}>Approved</th>
                  <th className={STACKED.headCell}>State</th>
                </tr>
              </thead>
              <tbody className={STACKED.body}>
                {items.map((p) => (
                  <tr key={p.id} className={STACKED.row}>
                    <td data-label="Customer" className={STACKED.cell}>
                      <span className="min-w-0 break-words max-md:text-right">
                        {p.customerEmail}
                      </span>
                    </td>
                    <td data-label="Asset" className={STACKED.cell}>
                      {assetLabel(p.assetId)}
                    </td>
                    <td
                      data-label="Amount"
                      className={cn(STACKED.cell, 'tabular-nums md:text-right')}
                    >
                      <span className="whitespace-nowrap">{amountText(p.assetId, p.amount)}</span>
                    </td>
                    <td data-label="Address" className={STACKED.cell}>
                      <CopyableAddress
                        address={p.address}
                        symbol={assetLabel(p.assetId)}
                        className="max-w-[9rem] lg:max-w-[14rem]"
                      />
                    </td>
                    <td data-label="Approved" className={STACKED.cell}>
                      {dateText(p.approvedAt)}
                    </td>
                    <td data-label="State" className={STACKED.cell}>
                      <span className="flex min-w-0 flex-col items-end gap-1 md:items-start">
                        <PayoutStateBadge state={p.state} />
                        {p.waitingReason ? (
                          <span className="break-words text-xs text-warning">
                            {p.waitingReason}
                          </span>
                        ) : null}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
      <StepUpDialog
        open={asking}
        title="Build a payout batch"
        description={`Put ${items.length} approved ${label} withdrawal${items.length === 1 ? '' : 's'} in one transaction and download its file to sign.`}
        confirmLabel="Confirm and build"
        pendingLabel="Building..."
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
    </section>
  );
}

function Batches({ overview }: { overview: TPayoutsOverview }) {
  return (
    <section aria-labelledby="payouts-batches-title" className="space-y-3">
      <h2 id="payouts-batches-title" className="text-lg font-semibold text-fg">
        Batches
      </h2>
      {overview.batches.length === 0 ? (
        <Card>
          <CardContent className="pt-5 text-center text-sm text-muted">
            No {CHAIN_LABELS[overview.chain]} batches yet.
          </CardContent>
        </Card>
      ) : (
        overview.batches.map((b) => <BatchCard key={b.id} batch={b} />)
      )}
    </section>
  );
}
