import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { CONTAINER } from './site-header';

type Action = { to: string; label: string };

/** The closing card of a marketing page: a heading, a sentence, and where to go next. */
export function CallToAction({
  title,
  children,
  primary,
  secondary,
}: {
  title: string;
  children: ReactNode;
  primary: Action;
  secondary: Action;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn(CONTAINER, 'pb-16 sm:pb-24')}>
      <div className="rounded-2xl border border-border bg-surface p-8 text-center shadow-sm sm:p-12">
        <h2 id={headingId} className="text-2xl font-bold tracking-tight text-fg sm:text-3xl">
          {title}
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-muted">{children}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to={primary.to}>{primary.label}</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={secondary.to}>{secondary.label}</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
