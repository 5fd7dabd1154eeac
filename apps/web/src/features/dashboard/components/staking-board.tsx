import {
  ASSETS,
  describeStakingRate,
  formatAssetAmount,
  formatDate,
  formatUsd,
  mulPrice,
  type TStakingResponse,
  toMinorOrNull,
} from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { useStaking } from '@web/lib/money/get-staking';
import { Coins, RefreshCw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';

const ETH = ASSETS.ETH;

/** The current time, updated every second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return now;
}

/** '3d 4h 12m' for long spans, '4h 05m 09s' for short ones. */
function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => n.toString().padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h ${pad(minutes)}m`;
  return `${hours}h ${pad(minutes)}m ${pad(seconds)}s`;
}

/** The program's dates are the same day for everyone: shown in UTC. */
function programDate(iso: string): string {
  return formatDate(iso, { timeZone: 'UTC' });
}

/** ETH as every screen shows it (its display decimals), the ticking accrual included. */
function eth(minor: bigint): string {
  return formatAssetAmount(ETH, minor);
}

function usdOf(minor: bigint, priceUsd: string | null): string | null {
  return priceUsd ? formatUsd(mulPrice(minor, ETH.decimals, priceUsd)) : null;
}

function Figure({
  label,
  value,
  sub,
  className,
}: {
  label: string;
  value: ReactNode;
  sub?: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 wrap-anywhere font-semibold tabular-nums text-fg">{value}</dd>
      {sub ? <dd className="text-sm tabular-nums text-muted">{sub}</dd> : null}
    </div>
  );
}

/**
 * The figures, ticking. Everything comes from the server (product.md M1, M2); between two
 * answers (a ledger event on the socket, or a poll while it is down) the pending accrual
 * advances by `accruingPerSecond`, measured on this device's clock from when the answer
 * arrived, so a skewed clock cannot inflate it.
 */
function Board({
  staking,
  receivedAt,
  ethPriceUsd,
}: {
  staking: TStakingResponse;
  receivedAt: number;
  ethPriceUsd: string | null;
}) {
  const now = useNow();
  const toMinor = (value: string) => toMinorOrNull(value, ETH.decimals) ?? 0n;

  // The server's clock, read on ours: its `asOf` happened when the answer arrived.
  const serverNow = now + (Date.parse(staking.asOf) - receivedAt);
  const nextCreditMs = staking.nextCreditAt ? Date.parse(staking.nextCreditAt) : null;
  const cycleStartMs = staking.cycleStartAt ? Date.parse(staking.cycleStartAt) : null;

  // Accrual stops at the credit; the credit's ledger event brings the credited figures.
  const accrueUntil = nextCreditMs ?? Number.POSITIVE_INFINITY;
  const elapsedMs = Math.max(0, Math.min(serverNow, accrueUntil) - Date.parse(staking.asOf));
  const pending =
    toMinor(staking.pendingAccrued) +
    (toMinor(staking.accruingPerSecond) * BigInt(Math.floor(elapsedMs))) / 1000n;

  const balance = toMinor(staking.ethBalance);
  const daily = toMinor(staking.dailyEarnings);
  const credited = toMinor(staking.creditedTotal);
  const total = balance + pending;
  const active = staking.isStaking && staking.status === 'active';

  const cycleLength =
    nextCreditMs !== null && cycleStartMs !== null ? nextCreditMs - cycleStartMs : null;
  const progress =
    cycleLength && cycleStartMs !== null
      ? Math.min(100, Math.max(0, ((serverNow - cycleStartMs) / cycleLength) * 100))
      : 0;
  const remaining = nextCreditMs !== null ? nextCreditMs - serverNow : null;

  return (
    <div className="space-y-6">
      <dl className="grid gap-4 sm:grid-cols-3">
        <Figure label="Wallet ETH balance" value={eth(balance)} sub={usdOf(balance, ethPriceUsd)} />
        <div>
          <dt className="text-sm text-muted">Status</dt>
          <dd className="mt-1">
            <Badge variant={active ? 'success' : 'secondary'}>
              {active ? 'Staking Active' : 'Not Staking'}
            </Badge>
          </dd>
          <dd className="mt-1 text-sm text-muted">
            {active && staking.stakingSince
              ? `Earning for ${formatDuration(serverNow - Date.parse(staking.stakingSince))}`
              : staking.status === 'not_started'
                ? `The program starts on ${programDate(staking.programStart)}.`
                : active
                  ? null
                  : 'Hold ETH in your wallet to start earning.'}
          </dd>
        </div>
        <Figure label="Daily earnings" value={eth(daily)} sub={usdOf(daily, ethPriceUsd)} />
      </dl>

      <section aria-labelledby="staking-program" className="rounded-lg bg-surface-2 p-4">
        <h3 id="staking-program" className="text-sm font-semibold text-fg">
          Program statistics
        </h3>
        <dl className="mt-3 grid gap-4 sm:grid-cols-3">
          <Figure label="Start date" value={programDate(staking.programStart)} />
          <Figure label="Rate" value={describeStakingRate(staking.dailyRate)} />
          <Figure label="Active stakers" value={staking.activeStakers.toLocaleString('en-US')} />
        </dl>
      </section>

      <dl className="grid gap-4 sm:grid-cols-3">
        <Figure
          label="Credited rewards"
          value={eth(credited)}
          sub="Already in your ETH balance, withdrawable"
        />
        <Figure
          label="Pending accrual"
          value={eth(pending)}
          sub="Credited at the end of the cycle"
        />
        <Figure
          label="Total (balance + pending)"
          value={eth(total)}
          sub={usdOf(total, ethPriceUsd)}
        />
      </dl>

      <div className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span id="staking-cycle" className="text-muted">
            Next credit
          </span>
          <span className="font-medium tabular-nums text-fg">
            {remaining === null
              ? 'No cycle running'
              : remaining > 0
                ? `in ${formatDuration(remaining)}`
                : 'Crediting now...'}
          </span>
        </div>
        <div
          role="progressbar"
          aria-labelledby="staking-cycle"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress)}
          className="h-2 overflow-hidden rounded-full bg-surface-2"
        >
          <div className="h-full rounded-full bg-primary" style={{ width: `${progress}%` }} />
        </div>
      </div>
    </div>
  );
}

/** The credit job runs every minute: by this long after a cycle's end, it has been credited. */
const CREDIT_GRACE_MS = 65_000;

/**
 * Reads the figures once more after the running cycle's end. A credit is announced on the
 * socket (it moves the ETH balance), but a cycle that earned nothing moves on silently, and
 * the board would otherwise stay at 'Crediting now...'.
 */
function useReadAfterCredit(staking: TStakingResponse | undefined, refetch: () => unknown) {
  const nextCreditAt = staking?.nextCreditAt ?? null;
  const asOf = staking?.asOf ?? null;
  useEffect(() => {
    if (nextCreditAt === null || asOf === null) return;
    // Server time to server time: how far the cycle's end was from the answer.
    const wait = Date.parse(nextCreditAt) - Date.parse(asOf);
    if (!(wait > 0)) return;
    const id = setTimeout(() => void refetch(), wait + CREDIT_GRACE_MS);
    return () => clearTimeout(id);
  }, [nextCreditAt, asOf, refetch]);
}

/** The ETH staking board under the asset list. */
export function StakingBoard({ ethPriceUsd }: { ethPriceUsd: string | null }) {
  const staking = useStaking({ poll: true });
  useReadAfterCredit(staking.data, staking.refetch);

  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2">
          <Coins className="h-5 w-5 text-primary" aria-hidden />
          <CardTitle>ETH Staking</CardTitle>
        </div>
        <CardDescription>
          Rewards accrue every second on the ETH you hold and are credited to your balance every 24
          hours. The rate is variable and not guaranteed.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {staking.data ? (
          <Board
            staking={staking.data}
            receivedAt={staking.dataUpdatedAt}
            ethPriceUsd={ethPriceUsd}
          />
        ) : staking.isError ? (
          <div role="alert" className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-danger">
              {errorMessage(staking.error, 'Failed to load staking data')}
            </p>
            <Button variant="outline" size="sm" onClick={() => void staking.refetch()}>
              <RefreshCw className="h-4 w-4" aria-hidden />
              Retry
            </Button>
          </div>
        ) : (
          <div className="flex items-center gap-2 text-sm text-muted">
            <Spinner label="Loading staking" />
            Loading staking...
          </div>
        )}
      </CardContent>
    </Card>
  );
}
