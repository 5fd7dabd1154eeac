import { cn } from '@web/lib/cn';
import type { ReactNode } from 'react';

type Mark = { shape: ReactNode; className: string };

// Simple marks drawn here, never fetched (no image service learns which assets a customer
// holds) and independent of fonts: light chips with dark marks read in both themes.
const MARKS: Readonly<Record<string, Mark>> = {
  BTC: {
    className: 'bg-orange-100 text-orange-800',
    shape: (
      <path
        d="M9 6h5a3 3 0 0 1 0 6H9zm0 6h6a3 3 0 0 1 0 6H9zM9 6v12M11 4v2m3-2v2m-3 12v2m3-2v2M7 6h2M7 18h2"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    ),
  },
  ETH: {
    className: 'bg-indigo-100 text-indigo-800',
    shape: (
      <g fill="currentColor">
        <path d="M12 3 6.5 12.2 12 15.4l5.5-3.2z" />
        <path d="M12 16.6 6.5 13.4 12 21l5.5-7.6z" opacity="0.7" />
      </g>
    ),
  },
  USDT: {
    className: 'bg-emerald-100 text-emerald-800',
    shape: (
      <g fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <path d="M6 6h12M12 6v13" />
        <ellipse cx="12" cy="11" rx="6" ry="1.8" strokeWidth="1.4" />
      </g>
    ),
  },
};

const SIZES = { sm: 'h-8 w-8', md: 'h-10 w-10', lg: 'h-14 w-14' } as const;

/**
 * An asset's round logo: a mark for the assets Coffer knows, otherwise the first two
 * characters of the symbol. Decorative: the symbol is always written next
 * to it.
 */
export function AssetLogo({
  symbol,
  size = 'md',
  className,
}: {
  symbol: string;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const upper = symbol.toUpperCase();
  const mark = Object.hasOwn(MARKS, upper) ? MARKS[upper] : undefined;
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex shrink-0 select-none items-center justify-center rounded-full font-bold',
        SIZES[size],
        mark ? mark.className : 'bg-surface-2 text-fg text-xs',
        className,
      )}
    >
      {mark ? (
        <svg viewBox="0 0 24 24" className="h-3/5 w-3/5" aria-hidden="true" focusable="false">
          {mark.shape}
        </svg>
      ) : (
        upper.slice(0, 2)
      )}
    </span>
  );
}
