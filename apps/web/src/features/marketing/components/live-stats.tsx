import { describeStakingRate, formatDailyRate, formatDate } from '@coffer/shared';
import { cn } from '@web/lib/cn';
import { useId } from 'react';
import { usePublicInfo } from '../api/get-public-info';

/**
 * Stands in for a figure that has not loaded yet. Deliberately shows no digits: a
 * placeholder that looks like a number would read as one.
 */
export function FigurePlaceholder({ className }: { className?: string }) {
  return (
    <span className="inline-flex align-middle">
      <span
        aria-hidden
        className={cn(
          'inline-block h-[1em] w-16 rounded bg-surface-2 motion-safe:animate-pulse',
          className,
        )}
      />
      <span className="sr-only">Loading</span>
    </span>
  );
}

const countFormat = new Intl.NumberFormat('en-US');

/** "Jul 10, 2025"; the program start is a UTC instant, so it is shown as a UTC date. */
export function formatProgramStart(iso: string): string | null {
  return Number.isNaN(Date.parse(iso)) ? null : formatDate(iso, { timeZone: 'UTC' });
}

/** A daily rate as the server sent it, or null when it is not a usable number. */
export function usableRate(dailyRate: string): string | null {
  const value = Number(dailyRate);
  return dailyRate.trim() !== '' && Number.isFinite(value) && value >= 0 ? dailyRate : null;
}

function Stat({
  label,
  value,
  detail,
}: {
  label: string;
  value: string | null;
  detail?: string | null;
}) {
  return (
    <div className="flex flex-col gap-1 rounded-xl border border-border bg-surface p-5">
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="text-2xl font-bold tracking-tight text-fg sm:text-3xl">
        {value ?? <FigurePlaceholder className="w-24" />}
      </dd>
      {detail !== undefined ? (
        <dd className="text-sm text-muted">{detail ?? <FigurePlaceholder className="w-40" />}</dd>
      ) : null}
    </div>
  );
}

/**
 * Figures counted by this installation, never estimates. Hidden entirely when the operator
 * has turned the public figures off (or they cannot be loaded); a neutral placeholder
 * stands in for each figure while they load.
 */
export function LiveStats({ className }: { className?: string }) {
  const headingId = useId();
  const info = usePublicInfo();
  if (info.isError) return null;
  const data = info.data;
  if (data && data.stats === null) return null;

  const rate = data ? usableRate(data.staking.dailyRate) : null;
  const start = data ? formatProgramStart(data.staking.programStart) : null;

  return (
    <section aria-labelledby={headingId} aria-busy={info.isPending} className={className}>
      <h2 id={headingId} className="text-2xl font-bold tracking-tight text-fg">
        Live figures
      </h2>
      <p className="mt-1 text-muted">Straight from this Coffer installation. No estimates.</p>
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        <Stat
          label="Registered customers"
          value={data?.stats ? countFormat.format(data.stats.customers) : null}
        />
        {/* A rate we cannot read is left out rather than shown as a guess. */}
        {data && rate === null ? null : (
          <Stat
            label="ETH staking rate"
            value={rate ? `${formatDailyRate(rate)} daily` : null}
            detail={rate ? describeStakingRate(rate) : null}
          />
        )}
        {data && start === null ? null : <Stat label="ETH staking running since" value={start} />}
      </dl>
    </section>
  );
}
