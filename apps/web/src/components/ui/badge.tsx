import { cn } from '@web/lib/cn';
import type { HTMLAttributes } from 'react';

type Variant = 'default' | 'secondary' | 'destructive' | 'success' | 'outline';
const VARIANTS: Record<Variant, string> = {
  default: 'bg-primary text-primary-fg',
  secondary: 'bg-surface-2 text-fg',
  destructive: 'bg-danger text-danger-fg',
  success: 'bg-success text-white dark:text-black',
  outline: 'border border-border text-fg',
};

export function Badge({
  variant = 'default',
  className,
  ...props
}: HTMLAttributes<HTMLSpanElement> & { variant?: Variant }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
        VARIANTS[variant],
        className,
      )}
      {...props}
    />
  );
}
