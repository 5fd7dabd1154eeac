import { formatUsd } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Logo } from '@web/components/ui/logo';
import { useWallets } from '@web/lib/money/get-wallets';
import { useSession } from '@web/lib/session';
import { useSignOut } from '@web/lib/sign-out';
import { LogOut } from 'lucide-react';
import { Link } from 'react-router';
import { MobileMenu } from './mobile-menu';

/** The portfolio total from the wallets (staking rewards credited included); '...' until known. */
function PortfolioTotal() {
  const wallets = useWallets();
  const total = wallets.data ? formatUsd(wallets.data.totalUsd) : wallets.isError ? '—' : '...';
  return (
    <output
      aria-label="Portfolio total"
      title={
        wallets.isError && !wallets.data ? 'The portfolio total could not be loaded' : undefined
      }
      className="font-semibold tabular-nums text-fg"
    >
      {total}
    </output>
  );
}

/** The bar across the top: logo, portfolio total, who is signed in, Logout, and the menu below 1024 px. */
export function TopBar() {
  const session = useSession();
  const signOut = useSignOut('/');
  const email = session.data?.user.email ?? '';

  return (
    <header className="sticky top-0 z-30 h-16 border-b border-border bg-surface">
      <div className="flex h-full items-center gap-3 px-4 sm:px-6">
        <Link
          to="/dashboard"
          aria-label="Coffer dashboard"
          className="shrink-0 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
        >
          <Logo />
        </Link>
        <div className="ml-auto flex min-w-0 items-center gap-3 sm:gap-5">
          <div className="flex shrink-0 flex-col items-end leading-tight">
            <span className="hidden text-xs text-muted sm:block" aria-hidden>
              Portfolio
            </span>
            <PortfolioTotal />
          </div>
          {/* On a phone the menu panel names who is signed in; the bar has no room. */}
          <span
            className="hidden min-w-0 max-w-[16rem] truncate text-sm text-muted sm:block"
            title={email}
          >
            {email}
          </span>
          <Button
            variant="outline"
            size="sm"
            onClick={() => signOut.mutate()}
            disabled={signOut.isPending}
            aria-label="Logout"
            className="shrink-0"
          >
            <LogOut className="h-4 w-4" aria-hidden />
            <span className="hidden sm:inline">Logout</span>
          </Button>
          <MobileMenu email={email} />
        </div>
      </div>
    </header>
  );
}
