import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import { House, SearchX } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { SiteFooter } from './site-footer';
import { CONTAINER, MAIN_CONTENT_ID, SiteHeader } from './site-header';

export default function NotFoundPage() {
  const { pathname } = useLocation();

  return (
    <div className="flex min-h-dvh flex-col bg-bg text-fg">
      <title>Page Not Found · Coffer</title>
      <SiteHeader />

      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className={cn(
          CONTAINER,
          'flex flex-1 flex-col items-center justify-center py-16 text-center focus:outline-none',
        )}
      >
        <span className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-surface-2 text-muted">
          <SearchX className="h-8 w-8" aria-hidden />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-fg sm:text-4xl">
          Page Not Found
        </h1>
        <p className="mt-3 max-w-md text-muted">
          There is no page at this address. It may have moved, or the link may be mistyped.
        </p>
        <dl className="mt-6 w-full max-w-md rounded-lg border border-border bg-surface px-4 py-3 text-left">
          <dt className="text-sm font-medium text-muted">Error Code</dt>
          <dd className="mt-1 break-all font-mono text-sm text-fg">{pathname}</dd>
        </dl>
        <Button asChild size="lg" className="mt-8">
          <Link to="/">
            <House className="h-4 w-4" aria-hidden />
            Return to Home
          </Link>
        </Button>
      </main>

      <SiteFooter />
    </div>
  );
}
