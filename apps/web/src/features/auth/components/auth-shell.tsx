import { Logo } from '@web/components/ui/logo';
import { cn } from '@web/lib/cn';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The signed-out pages' frame: the logo home, a way back, and the page's card centred. */
export function AuthShell({
  back,
  className,
  children,
}: {
  back: { to: string; label: string };
  /** The column's width. */
  className: string;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-bg px-4 py-8">
      <div className={cn('flex w-full flex-col gap-6', className)}>
        <div className="flex items-center justify-between gap-4">
          <Link to="/" aria-label="Coffer home">
            <Logo />
          </Link>
          <Link
            to={back.to}
            className="inline-flex items-center gap-1 text-sm text-muted hover:text-fg"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden />
            {back.label}
          </Link>
        </div>
        {children}
      </div>
    </main>
  );
}
