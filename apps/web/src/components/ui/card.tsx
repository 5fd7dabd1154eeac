import { cn } from '@web/lib/cn';
import type { HTMLAttributes } from 'react';

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn('rounded-xl border border-border bg-surface shadow-sm', className)}
      {...props}
    />
  );
}

export function CardHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('flex flex-col gap-1 p-5 pb-3', className)} {...props} />;
}

export function CardTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  return <h2 className={cn('text-lg font-semibold text-fg', className)} {...props} />;
}

export function CardDescription({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn('text-sm text-muted', className)} {...props} />;
}

/** Padding classes of the caller's, with or without a breakpoint: all sides (p-8, md:p-5)... */
const SETS_ALL_PADDING = /(?:^|\s)(?:[a-z0-9]+:)?p-/;
/** ...or the top (py-10, pt-1). */
const SETS_TOP_PADDING = /(?:^|\s)(?:[a-z0-9]+:)?(?:py|pt)-/;

/**
 * The card's body, with the card's padding. Its top padding is left out for the CardHeader
 * above it, unless the caller sets padding of its own: a body with no header (an empty state's
 * py-10, a notice's p-8) then keeps its top, so its first line never sits on the border.
 * (Classes are not merged: the caller's padding replaces the default rather than racing it.)
 */
export function CardContent({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  const padding = SETS_ALL_PADDING.test(className)
    ? null
    : SETS_TOP_PADDING.test(className)
      ? 'p-5'
      : 'p-5 pt-0';
  return <div className={cn(padding, className)} {...props} />;
}
