import { describeStakingRate, formatDailyRate } from '@coffer/shared';
import { cn } from '@web/lib/cn';
import { usePublicInfo } from '../api/get-public-info';
import { FigurePlaceholder, formatProgramStart, usableRate } from './live-stats';

/**
 * The rate's words before the figures arrive, each figure a placeholder about its width:
 * the sentence takes its final lines from the first paint, and nothing below it moves when
 * the figures come in.
 */
function PendingRateWords({ className }: { className?: string }) {
  return (
    <span className={className}>
      <FigurePlaceholder className="w-[3em]" /> daily, about{' '}
      <FigurePlaceholder className="w-[2.4em]" /> a year, variable, not guaranteed
    </span>
  );
}

/**
 * The ETH staking rate as the operator set it, always with its yearly equivalent:
 * "0.01% daily, about 3.7% a year, variable, not guaranteed".
 */
export function StakingRateText({ className }: { className?: string }) {
  const info = usePublicInfo();
  if (info.isPending) return <PendingRateWords className={className} />;
  const rate = info.data ? usableRate(info.data.staking.dailyRate) : null;
  if (!rate) {
    return <span className={className}>variable, not guaranteed (current rate unavailable)</span>;
  }
  return <span className={className}>{describeStakingRate(rate)}</span>;
}

/** A panel with the current daily rate in large type, its yearly equivalent and the start date. */
export function StakingRateHighlight({ className }: { className?: string }) {
  const info = usePublicInfo();
  const rate = info.data ? usableRate(info.data.staking.dailyRate) : null;
  const start = info.data ? formatProgramStart(info.data.staking.programStart) : null;
  const unavailable = !info.isPending && rate === null;

  return (
    <div
      className={cn('rounded-xl border border-border bg-surface p-6 shadow-sm', className)}
      aria-busy={info.isPending}
    >
      <p className="text-sm font-medium text-muted">Current ETH staking rate</p>
      {unavailable ? (
        <p className="mt-2 text-fg">
          The current rate can't be loaded right now. It is variable and not guaranteed.
        </p>
      ) : (
        <>
          <p className="mt-2 text-4xl font-bold tracking-tight text-fg">
            {rate ? (
              <>
                {formatDailyRate(rate)}{' '}
                <span className="text-lg font-semibold text-muted">daily</span>
              </>
            ) : (
              <FigurePlaceholder className="w-28" />
            )}
          </p>
          <p className="mt-2 text-sm text-muted">
            {rate ? describeStakingRate(rate) : <PendingRateWords />}
          </p>
        </>
      )}
      {start || info.isPending ? (
        <p className="mt-4 text-sm text-muted">
          Running since {start ?? <FigurePlaceholder className="w-[7em]" />}.
        </p>
      ) : null}
      <p className="mt-4 text-sm text-muted">
        Set by Coffer and may change. Past rewards don't promise future ones.
      </p>
    </div>
  );
}
