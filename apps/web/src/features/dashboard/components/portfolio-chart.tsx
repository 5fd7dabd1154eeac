import type { TPortfolioHistoryResponse } from '@coffer/shared';
import { formatDateTime, formatShortDate, formatTime, formatUsd } from '@coffer/shared';
import { cn } from '@web/lib/cn';
import { type PointerEvent, useId, useState } from 'react';

type Point = TPortfolioHistoryResponse['points'][number];
/** `value` places the point on the drawing only; every figure shown is `usd`, exact. */
type Datum = { t: number; value: number; usd: string };

const AXIS_USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});

// The drawing's own coordinate space; the SVG stretches it to the card.
const W = 1000;
const H = 300;
const PAD = 12;

/**
 * The portfolio value line, drawn as plain SVG (see docs/decisions/0004): a charting
 * library would more than double the dashboard's JavaScript for one line.
 */
export function PortfolioChart({
  points,
  range,
  className,
}: {
  points: readonly Point[];
  range: TPortfolioHistoryResponse['range'];
  className?: string;
}) {
  const gradientId = `portfolio-fill-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [active, setActive] = useState<number | null>(null);
  const data: Datum[] = points
    .map((p) => ({ t: Date.parse(p.t), value: Number(p.usd), usd: p.usd }))
    .filter((d) => Number.isFinite(d.t) && Number.isFinite(d.value))
    .sort((a, b) => a.t - b.t);
  const first = data[0];
  const last = data[data.length - 1];
  if (!first || !last) return null;

  const values = data.map((d) => d.value);
  // A portfolio that held nothing is a line at $0, not a scale of invented dollars.
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || Math.max(1, max);
  const low = max === min ? Math.max(0, min - span / 2) : min;
  const high = low + span;
  const x = (t: number) => (last.t === first.t ? W / 2 : ((t - first.t) / (last.t - first.t)) * W);
  const y = (v: number) => H - PAD - ((v - low) / (high - low)) * (H - 2 * PAD);
  const line = data
    .map((d, i) => `${i === 0 ? 'M' : 'L'}${x(d.t).toFixed(1)},${y(d.value).toFixed(1)}`)
    .join(' ');
  const area = `${line} L${x(last.t).toFixed(1)},${H} L${x(first.t).toFixed(1)},${H} Z`;
  // The axis of a day reads hours; a longer range reads days.
  const tick = range === '24h' ? formatTime : formatShortDate;
  const middle = data[Math.floor(data.length / 2)] ?? first;
  const shown = active === null ? null : data[active];

  const start = first.t;
  const end = last.t;
  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const t = start + ((event.clientX - box.left) / box.width) * (end - start);
    let nearest = 0;
    for (let i = 1; i < data.length; i++) {
      if (Math.abs((data[i]?.t ?? 0) - t) < Math.abs((data[nearest]?.t ?? 0) - t)) nearest = i;
    }
    setActive(nearest);
  }

  return (
    <figure className={cn('relative flex w-full gap-2', className)}>
      <div
        className="flex w-14 shrink-0 flex-col justify-between py-1 text-right text-xs text-muted tabular-nums"
        aria-hidden
      >
        <span>{AXIS_USD.format(high)}</span>
        <span>{AXIS_USD.format(low)}</span>
      </div>
      <div className="relative flex min-w-0 flex-1 flex-col">
        <svg
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          className="h-full w-full flex-1 touch-none"
          onPointerMove={onPointerMove}
          onPointerLeave={() => setActive(null)}
          aria-hidden
        >
          <defs>
            <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="var(--color-primary)" stopOpacity={0.35} />
              <stop offset="100%" stopColor="var(--color-primary)" stopOpacity={0} />
            </linearGradient>
          </defs>
          <line
            x1={0}
            x2={W}
            y1={H / 2}
            y2={H / 2}
            stroke="var(--color-border)"
            strokeDasharray="6 6"
            vectorEffect="non-scaling-stroke"
          />
          <path d={area} fill={`url(#${gradientId})`} />
          <path
            d={line}
            fill="none"
            stroke="var(--color-primary)"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
          />
          {shown ? (
            <line
              x1={x(shown.t)}
              x2={x(shown.t)}
              y1={0}
              y2={H}
              stroke="var(--color-muted)"
              vectorEffect="non-scaling-stroke"
            />
          ) : null}
        </svg>
        <div className="flex justify-between pt-1 text-xs text-muted" aria-hidden>
          <span>{tick(first.t)}</span>
          <span>{tick(middle.t)}</span>
          <span>{tick(last.t)}</span>
        </div>
        {shown ? (
          <div
            className="pointer-events-none absolute top-1 rounded-md border border-border bg-surface px-3 py-2 text-sm shadow-md"
            style={{
              left: `clamp(0px, calc(${(x(shown.t) / W) * 100}% - 4rem), calc(100% - 8rem))`,
            }}
          >
            <p className="text-muted">{formatDateTime(shown.t)}</p>
            <p className="font-semibold tabular-nums text-fg">{formatUsd(shown.usd)}</p>
          </div>
        ) : null}
      </div>
      <figcaption className="sr-only">
        Portfolio value from {formatUsd(first.usd)} on {formatDateTime(first.t)} to{' '}
        {formatUsd(last.usd)} on {formatDateTime(last.t)}.
      </figcaption>
    </figure>
  );
}
