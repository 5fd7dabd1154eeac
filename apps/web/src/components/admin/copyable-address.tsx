import { cn } from '@web/lib/cn';
import { CopyValueButton } from './copy-value-button';

/**
 * A crypto address cut to one line (the full address in its tooltip) with a copy button.
 * `className` sets how wide the address may grow before it is cut.
 */
export function CopyableAddress({
  address,
  symbol,
  className,
}: {
  address: string;
  symbol: string;
  className: string;
}) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span translate="no" className={cn('truncate font-mono text-xs', className)} title={address}>
        {address}
      </span>
      <CopyValueButton value={address} label={`Copy ${symbol} address`} />
    </span>
  );
}
