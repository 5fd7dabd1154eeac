import { cn } from '@web/lib/cn';
import { CustomerText } from '../ui/customer-text';
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
      {/* A customer's destination may hold bidi overrides: isolated, hidden characters shown. */}
      <CustomerText text={address} truncate className={cn('font-mono text-xs', className)} />
      <CopyValueButton value={address} label={`Copy ${symbol} address`} />
    </span>
  );
}
