import { Logo } from '@web/components/ui/logo';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The frame of a page a customer reaches from a mailed link or before signing in: the logo
 * (home) above one centred card, nothing else to distract from the one thing to do.
 */
export function LinkPage({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-bg px-4 py-8">
      <div className="flex w-full max-w-md flex-col gap-6">
        <Link to="/" aria-label="Coffer home" className="self-center">
          <Logo />
        </Link>
        {children}
      </div>
    </main>
  );
}
