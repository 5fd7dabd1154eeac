import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import {
  ArrowDownToLine,
  ArrowUpFromLine,
  Blocks,
  ExternalLink,
  FileClock,
  History,
  IdCard,
  KeyRound,
  Landmark,
  LayoutDashboard,
  LifeBuoy,
  LockKeyhole,
  LogOut,
  type LucideIcon,
  MapPinned,
  Menu,
  MessagesSquare,
  Receipt,
  Send,
  Settings,
  Settings2,
  ShieldCheck,
  UserCheck,
  UserCog,
  WalletCards,
  X,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { Button } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { usePublicInfo } from '../../features/marketing/api/get-public-info';
import { cn } from '../../lib/cn';
import { formatUsd } from '../../lib/money/format';
import { useWallets } from '../../lib/money/get-wallets';
import { useLiveMoney } from '../../lib/money/live-money';
import { useRealtimeConnection } from '../../lib/realtime';
import { sessionQueryOptions, useSession } from '../../lib/session';
import { useSignOut } from '../../lib/sign-out';

type NavEntry = {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Highlight only on this exact path, not on the paths below it. */
  end?: boolean;
  group: 'account' | 'admin';
};

// Every menu entry of the portal, in menu order; a new screen adds its entry here only.
const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard, end: true, group: 'account' },
  { label: 'Deposit', to: '/dashboard/deposit', icon: ArrowDownToLine, group: 'account' },
  { label: 'Withdraw', to: '/dashboard/withdraw', icon: ArrowUpFromLine, group: 'account' },
  { label: 'Bank Transfer', to: '/bank-transfer', icon: Landmark, group: 'account' },
  { label: 'History', to: '/dashboard/history', icon: History, group: 'account' },
  { label: 'Verification', to: '/kyc', icon: IdCard, group: 'account' },
  { label: 'Secret Combination', to: '/secret-combination', icon: KeyRound, group: 'account' },
  { label: 'Support', to: '/dashboard/chat', icon: MessagesSquare, group: 'account' },
  { label: 'Settings', to: '/dashboard/settings', icon: Settings, group: 'account' },
  {
    label: 'Admin Dashboard',
    to: '/dashboard/admin',
    icon: ShieldCheck,
    end: true,
    group: 'admin',
  },
  { label: 'Users', to: '/dashboard/admin/users', icon: UserCog, group: 'admin' },
  { label: 'Transactions', to: '/dashboard/admin/transactions', icon: Receipt, group: 'admin' },
  { label: 'Recovery Phrases', to: '/admin/recovery-phrases', icon: LockKeyhole, group: 'admin' },
  {
    label: 'Wallet Management',
    to: '/dashboard/admin/wallet-management',
    icon: WalletCards,
    group: 'admin',
  },
  {
    label: 'Deposit Addresses',
    to: '/dashboard/admin/addresses',
    icon: MapPinned,
    group: 'admin',
  },
  { label: 'Chains', to: '/dashboard/admin/chains', icon: Blocks, group: 'admin' },
  { label: 'Payouts', to: '/dashboard/admin/payouts', icon: Send, group: 'admin' },
  { label: 'App Settings', to: '/dashboard/admin/settings', icon: Settings2, group: 'admin' },
  { label: 'KYC Review', to: '/dashboard/admin/kyc', icon: UserCheck, group: 'admin' },
  { label: 'Support Chat', to: '/dashboard/admin/chat', icon: MessagesSquare, group: 'admin' },
  { label: 'Audit Log', to: '/dashboard/admin/audit', icon: FileClock, group: 'admin' },
];

const DESKTOP_QUERY = '(min-width: 1024px)';

const ENTRY_CLASS =
  'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary';

/** The operator sets the support link; only web links are followed. */
function safeExternalUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function EntryLink({ entry, onNavigate }: { entry: NavEntry; onNavigate?: () => void }) {
  const Icon = entry.icon;
  return (
    <NavLink
      to={entry.to}
      end={entry.end}
      onClick={onNavigate}
      className={({ isActive }) =>
        cn(ENTRY_CLASS, isActive ? 'bg-primary text-primary-fg' : 'text-fg hover:bg-surface-2')
      }
    >
      <Icon className="h-4 w-4 shrink-0" aria-hidden />
      {entry.label}
    </NavLink>
  );
}

/** The menu of the sidebar and of the slide-in menu: same entries, same order. */
function PortalMenu({ onNavigate }: { onNavigate?: () => void }) {
  const session = useSession();
  const publicInfo = usePublicInfo();
  const signOut = useSignOut('/auth');
  const isAdmin = session.data?.user.isAdmin === true;
  const supportUrl = safeExternalUrl(publicInfo.data?.supportChatUrl);
  const accountEntries = NAV_ENTRIES.filter((e) => e.group === 'account');
  const adminEntries = isAdmin ? NAV_ENTRIES.filter((e) => e.group === 'admin') : [];

  return (
    <div className="flex h-full flex-col gap-6 overflow-y-auto p-4">
      <nav aria-label="Main" className="flex flex-col gap-6">
        <ul className="flex flex-col gap-1">
          {accountEntries.map((entry) => (
            <li key={entry.to}>
              <EntryLink entry={entry} onNavigate={onNavigate} />
            </li>
          ))}
          {supportUrl ? (
            <li>
              <a
                href={supportUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={cn(ENTRY_CLASS, 'text-fg hover:bg-surface-2')}
              >
                <LifeBuoy className="h-4 w-4 shrink-0" aria-hidden />
                Help Centre
                <ExternalLink className="ml-auto h-3.5 w-3.5 text-muted" aria-hidden />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </li>
          ) : null}
        </ul>
        {adminEntries.length > 0 ? (
          <div className="flex flex-col gap-1">
            <p
              id={onNavigate ? 'menu-admin-group' : 'sidebar-admin-group'}
              className="px-3 text-xs font-semibold uppercase tracking-wide text-muted"
            >
              Admin
            </p>
            <ul
              aria-labelledby={onNavigate ? 'menu-admin-group' : 'sidebar-admin-group'}
              className="flex flex-col gap-1"
            >
              {adminEntries.map((entry) => (
                <li key={entry.to}>
                  <EntryLink entry={entry} onNavigate={onNavigate} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </nav>
      <div className="mt-auto border-t border-border pt-4">
        <button
          type="button"
          onClick={() => signOut.mutate()}
          disabled={signOut.isPending}
          className={cn(
            ENTRY_CLASS,
            'w-full text-fg hover:bg-surface-2 disabled:pointer-events-none disabled:opacity-50',
          )}
        >
          <LogOut className="h-4 w-4 shrink-0" aria-hidden />
          Logout
        </button>
      </div>
    </div>
  );
}

/** Below 1024 px: a floating button that opens the menu as a panel sliding in from the right. */
function MobileMenu() {
  const [open, setOpen] = useState(false);

  // Widening the window to the sidebar layout closes the panel (it would be hidden anyway).
  useEffect(() => {
    const query = window.matchMedia(DESKTOP_QUERY);
    const onChange = (event: MediaQueryListEvent) => {
      if (event.matches) setOpen(false);
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger
        aria-label="Open menu"
        className={cn(
          'fixed right-5 bottom-5 z-30 flex h-14 w-14 items-center justify-center rounded-full lg:hidden',
          'bg-primary text-primary-fg shadow-lg transition-colors hover:bg-primary-hover',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary',
        )}
      >
        <Menu className="h-6 w-6" aria-hidden />
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50 lg:hidden" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className={cn(
            'fixed inset-y-0 right-0 z-50 flex w-72 max-w-[85vw] flex-col border-l border-border bg-surface text-fg shadow-xl lg:hidden',
            'transition-transform duration-200 starting:translate-x-full motion-reduce:transition-none',
          )}
        >
          <div className="flex h-16 items-center justify-between border-b border-border px-4">
            <DialogPrimitive.Title className="text-base font-semibold">Menu</DialogPrimitive.Title>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close menu">
                <X className="h-5 w-5" aria-hidden />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <PortalMenu onNavigate={() => setOpen(false)} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

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

function TopBar() {
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
          <span
            className="min-w-0 max-w-[7.5rem] truncate text-sm text-muted sm:max-w-[16rem]"
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
        </div>
      </div>
    </header>
  );
}

/**
 * What the portal hands the pages it renders (`useOutletContext`). Features may not import
 * each other, so the session reaches them from here, the app layer.
 */
export type TPortalContext = {
  user: { id: string; email: string; isAdmin: boolean } | null;
  /** Re-reads the session after something that changes it (e.g. a new recovery phrase). */
  refreshSession: () => Promise<void>;
};

/** The signed-in portal: top bar, sidebar from 1024 px, slide-in menu below that. */
export default function PortalLayout() {
  const session = useSession();
  const queryClient = useQueryClient();
  // The tab's one realtime socket, open while the user is signed in past 2FA.
  useRealtimeConnection();
  useLiveMoney();
  const user = session.data?.user ?? null;
  const context = useMemo<TPortalContext>(
    () => ({
      user,
      refreshSession: () =>
        queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
    }),
    [user, queryClient],
  );

  return (
    <div className="min-h-screen bg-bg text-fg">
      <a
        href="#portal-main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:text-fg focus:shadow"
      >
        Skip to content
      </a>
      <TopBar />
      <aside
        aria-label="Sidebar"
        className="fixed top-16 bottom-0 left-0 hidden w-64 border-r border-border bg-surface lg:block"
      >
        <PortalMenu />
      </aside>
      <main id="portal-main" tabIndex={-1} className="px-4 py-6 pb-24 sm:px-6 lg:pb-8 lg:pl-72">
        <div className="mx-auto w-full max-w-6xl">
          <Outlet context={context} />
        </div>
      </main>
      <MobileMenu />
    </div>
  );
}
