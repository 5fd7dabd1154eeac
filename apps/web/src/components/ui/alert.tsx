import { cn } from '@web/lib/cn';
import { AlertTriangle, Info, OctagonAlert } from 'lucide-react';
import type { HTMLAttributes } from 'react';

type Variant = 'info' | 'warning' | 'danger';

const STYLES: Record<Variant, string> = {
  info: 'border-border bg-surface-2',
  warning: 'border-warning/50 bg-warning/10',
  danger: 'border-danger/50 bg-danger/10',
};
const ICONS = { info: Info, warning: AlertTriangle, danger: OctagonAlert } as const;
const ICON_COLOURS: Record<Variant, string> = {
  info: 'text-primary',
  warning: 'text-warning',
  danger: 'text-danger',
};

/**
 * A boxed message with an icon: a notice (info), something to be careful about (warning) or
 * something that stops the customer (danger). Give it role="alert" or "status" when it
 * appears in answer to something, so screen readers announce it.
 */
export function Alert({
  variant = 'info',
  title,
  className,
  children,
  ...props
}: HTMLAttributes<HTMLDivElement> & { variant?: Variant; title?: string }) {
  const Icon = ICONS[variant];
  return (
    <div
      className={cn(
        'flex items-start gap-3 rounded-lg border p-3 text-sm text-fg',
        STYLES[variant],
        className,
      )}
      {...props}
    >
      <Icon className={cn('mt-0.5 h-4 w-4 shrink-0', ICON_COLOURS[variant])} aria-hidden />
      <div className="min-w-0 space-y-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        <div>{children}</div>
      </div>
    </div>
  );
}
