import { assetById, formatAssetAmount } from '@coffer/shared';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { EmailText } from '@web/components/ui/email-text';
import { RelativeTime } from '@web/components/ui/relative-time';
import { PageSpinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  type TAdminChains,
  type TChainAlert,
  type TChainConfigItem,
  type TChainName,
  type TWatchedChain,
  useAdminChains,
} from '../api/get-admin-chains';
import { usePayoutFunds } from '../api/get-payout-funds';

const CHAIN_LABELS: Record<TChainName, string> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
  tron: 'TRON',
};

type State = TAdminChains['chains'][number]['state'];

// The badge's look (components/ui/badge.tsx) with a colour per state, amber for lagging.
const STATE_BADGES: Record<State, { label: string; className: string }> = {
  ok: { label: 'OK', className: 'bg-success text-white dark:text-black' },
  lagging: { label: 'Lagging', className: 'bg-warning text-white dark:text-black' },
  failing: { label: 'Failing', className: 'bg-danger text-danger-fg' },
  'not-started': { label: 'Not started', className: 'bg-surface-2 text-fg' },
  'not-configured': { label: 'Not configured', className: 'border border-border text-fg' },
};

const numberFormat = new Intl.NumberFormat('en-US');

function count(n: number | null): string {
  return n === null ? '—' : numberFormat.format(n);
}

/** "3 minutes ago" with the exact time on hover, or "never". */
function When({ iso }: { iso: string | null }) {
  if (!iso) return <span>never</span>;
  return <RelativeTime iso={iso} />;
}

function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{term}</dt>
      <dd className="break-words text-sm font-medium tabular-nums text-fg">{children}</dd>
    </div>
  );
}

function Configuration({ items }: { items: TChainConfigItem[] }) {
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold text-fg">Configuration</h3>
      <dl className="space-y-1.5">
        {items.map((item) => (
          <div key={item.name} className="min-w-0">
            <dt className="font-mono text-xs text-muted">{item.name}</dt>
            <dd
              className={cn(
                'break-all text-sm',
                item.value === null ? 'italic text-muted' : 'font-mono text-fg',
              )}
            >
              {item.value ?? 'not set'}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Figures({ c }: { c: TWatchedChain }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
      <Figure term="Node tip">{count(c.nodeTip)}</Figure>
      <Figure term="Watcher height">{c.height === null ? 'not started' : count(c.height)}</Figure>
      <Figure term="Lag">
        {c.lag === null ? '—' : `${count(c.lag)} block${c.lag === 1 ? '' : 's'}`}
      </Figure>
      <Figure term="Last block time">
        <When iso={c.lastBlockAt} />
      </Figure>
      <Figure term="Last poll">
        <When iso={c.lastPollAt} />
      </Figure>
      <Figure term="Errors, last hour">
        <span className={c.errorsLastHour > 0 ? 'text-danger' : undefined}>
          {count(c.errorsLastHour)}
        </span>
      </Figure>
      <Figure term="Watched addresses">{count(c.watchedAddresses)}</Figure>
      <Figure term="Awaiting confirmations">{count(c.confirming)}</Figure>
      <Figure term="Required confirmations">{count(c.requiredConfirmations)}</Figure>
    </dl>
  );
}

/** Ethereum pays out from one address the operator funds: where it is and what it holds. */
function PayoutFunds() {
  const funds = usePayoutFunds(true);
  if (!funds.data?.address) return null;
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold text-fg">Payout address</h3>
      <p className="break-all font-mono text-sm text-fg">{funds.data.address}</p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
        {funds.data.balances.map((b) => {
          const asset = assetById(b.assetId);
          return (
            <Figure key={b.assetId} term={`${asset?.symbol ?? b.assetId} held`}>
              {asset
                ? formatAssetAmount(asset, b.amount, { exact: true })
                : `${b.amount} ${b.assetId}`}
            </Figure>
          );
        })}
      </dl>
      <p className="text-xs text-muted">
        Ethereum and USDT-ERC20 payouts are paid from this address (ETH_XPUB/1/0): fund it with ETH
        for the payouts and their gas, and with USDT.
      </p>
    </div>
  );
}

function ChainCard({ c }: { c: TAdminChains['chains'][number] }) {
  const badge = STATE_BADGES[c.state];
  const label = CHAIN_LABELS[c.chain];
  return (
    <Card aria-labelledby={`chain-${c.chain}`} role="region">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id={`chain-${c.chain}`}>{label}</CardTitle>
          <span
            className={cn(
              'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
              badge.className,
            )}
          >
            {badge.label}
          </span>
        </div>
        <p className="text-sm text-muted">{c.reason}</p>
      </CardHeader>
      <CardContent className="space-y-5">
        {c.configured ? (
          <>
            <Figures c={c} />
            {c.lastError ? (
              <div className="rounded-lg border border-border bg-surface-2 p-3 text-sm">
                <p className="text-xs text-muted">
                  Last error <When iso={c.lastErrorAt} />
                </p>
                <p className="break-words font-mono text-xs text-fg">{c.lastError}</p>
              </div>
            ) : null}
            {c.chain === 'ethereum' ? <PayoutFunds /> : null}
            {c.reversedOnChain > 0 ? (
              <p className="text-sm font-medium text-danger">
                {c.reversedOnChain} credited deposit{c.reversedOnChain === 1 ? '' : 's'} left this
                chain: see below.
              </p>
            ) : null}
          </>
        ) : null}
        <Configuration items={c.configuration} />
      </CardContent>
    </Card>
  );
}

function amountOf(a: TChainAlert): string {
  const asset = assetById(a.assetId);
  if (!asset) return `${a.amountMinor} (smallest units of ${a.assetId})`;
  // Every unit: staff match it against the chain.
  return formatAssetAmount(asset, BigInt(a.amountMinor), { exact: true });
}

function Alerts({ alerts }: { alerts: TChainAlert[] }) {
  return (
    <section aria-labelledby="chain-alerts-title" className="space-y-3">
      <h2 id="chain-alerts-title" className="text-lg font-semibold text-fg">
        Deposits that left the chain
      </h2>
      <p className="text-sm text-muted">
        These deposits were credited, then their block was replaced in a reorganisation and the
        transaction is no longer on the chain. Coffer did not debit them: the balance still holds
        the money. Staff must resolve each one (check the transaction, and correct the balance
        through the ledger if it does not come back).
      </p>
      {alerts.length === 0 ? (
        <Card>
          <CardContent className="py-6 text-center text-sm text-muted">
            None: every credited deposit is still on its chain.
          </CardContent>
        </Card>
      ) : (
        <Card>
          <ul aria-label="Credited deposits that left the chain" className="divide-y divide-border">
            {alerts.map((a) => (
              <li
                key={a.depositId}
                className="grid gap-2 p-4 text-sm md:grid-cols-[1fr_auto] md:items-start"
              >
                <div className="min-w-0 space-y-1">
                  <p className="font-medium text-fg">
                    <EmailText email={a.email} />
                  </p>
                  <p className="font-semibold tabular-nums text-fg">{amountOf(a)}</p>
                  <p className="break-all font-mono text-xs text-muted">
                    <span className="sr-only">Transaction hash </span>
                    {a.txHash}
                  </p>
                </div>
                <p className="text-xs text-muted md:text-right">
                  {CHAIN_LABELS[a.chain as TChainName] ?? a.chain} · left the chain{' '}
                  <When iso={a.since} />
                </p>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}

/** /dashboard/admin/chains: each chain watcher's state, and what staff must resolve. */
export default function AdminChainsPage() {
  const chains = useAdminChains();

  let body: ReactNode;
  if (chains.isPending) {
    body = <PageSpinner text="Loading the chains..." />;
  } else if (chains.isError) {
    body = (
      <Alert variant="danger" role="alert" title="Could not load the chains">
        {errorMessage(chains.error, 'Request failed')}
      </Alert>
    );
  } else {
    body = (
      <>
        <div className="grid gap-4 xl:grid-cols-3">
          {chains.data.chains.map((c) => (
            <ChainCard key={c.chain} c={c} />
          ))}
        </div>
        <Alerts alerts={chains.data.alerts} />
      </>
    );
  }

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-fg">Chains</h1>
          <p className="text-sm text-muted">
            The blockchain watchers: how far each has read, whether its node answers, and what
            waits. Refreshed every 15 seconds.
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void chains.refetch()}
          disabled={chains.isFetching}
        >
          <RefreshCw
            className={cn(
              'h-4 w-4',
              chains.isFetching && 'animate-spin motion-reduce:animate-none',
            )}
            aria-hidden
          />
          Refresh
        </Button>
      </header>
      {body}
    </div>
  );
}
