import { cn } from '@web/lib/cn';
import type { ReactNode } from 'react';

/**
 * A box that scrolls sideways when its content (a wide table) is wider than the screen. It
 * takes keyboard focus and carries a name, so the part out of view can be reached with the
 * arrow keys and a screen reader says what the region holds.
 */
export function ScrollRegion({
  label,
  bleed = false,
  children,
}: {
  label: string;
  /** Runs to the card's edges (its padding is 1.25 rem), so a table uses the full width. */
  bleed?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region must be reachable by keyboard (its hidden part is otherwise out of reach)
      tabIndex={0}
      className={cn(
        'overflow-x-auto rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary',
        bleed && '-mx-5 px-5',
      )}
    >
      {children}
    </section>
  );
}
