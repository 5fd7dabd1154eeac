import { Logo } from '@web/components/ui/logo';
import { cn } from '@web/lib/cn';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The frame of a signed-out page (sign-in, password reset, a page reached from a mailed
 * link): the logo home, a way back when there is one, and the page's card centred, nothing
 * else to distract from the one thing to do.
 */
export function LinkPage({
  back,
  className = 'max-w-md',
  children,
}: {
  back?: { to: string; label: string };
  /** The column's width. */
  className?: string;
  children: ReactNode;
}) {
  const home = (
    <Link to="/" aria-label="Coffer home" className={back ? undefined : 'self-center'}>
      <Logo />
    </Link>
  );
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-bg px-4 py-8">
      <div className={cn('flex w-full flex-col gap-6', className)}>
        {back ? (
          <div className="flex items-center justify-between gap-4">
            {home}
            <Link
              to={back.to}
              className="inline-flex items-center gap-1 text-sm text-muted hover:text-fg"
            >
              <ArrowLeft className="h-4 w-4" aria-hidden />
              {back.label}
            </Link>
          </div>
        ) : (
          home
        )}
        {children}
      </div>
    </main>
  );
}
