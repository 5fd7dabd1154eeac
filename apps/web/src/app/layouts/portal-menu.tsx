import { useChanges } from '@web/features/admin-dashboard/api/get-changes';
import { usePublicInfo } from '@web/features/marketing/api/get-public-info';
import { cn } from '@web/lib/cn';
import { useSession } from '@web/lib/session';
import { useSignOut } from '@web/lib/sign-out';
import { useCan } from '@web/lib/staff';
import { ExternalLink, LifeBuoy, LogOut } from 'lucide-react';
import { NavLink } from 'react-router';
import { NAV_ENTRIES, type NavEntry } from './portal-nav-entries';

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

function EntryLink({
  entry,
  onNavigate,
  badge = 0,
}: {
  entry: NavEntry;
  onNavigate?: () => void;
  /** A count shown at the entry's end (the changes waiting), none when 0. */
  badge?: number;
}) {
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
      {badge > 0 ? (
        <span
          className="ml-auto rounded-full bg-warning px-2 py-0.5 text-xs font-semibold text-black"
          data-testid="menu-changes-count"
        >
          {badge}
          <span className="sr-only"> {badge === 1 ? 'change' : 'changes'} waiting</span>
        </span>
      ) : null}
    </NavLink>
  );
}

/** The menu of the sidebar and of the slide-in menu: same entries, same order. */
export function PortalMenu({ onNavigate }: { onNavigate?: () => void }) {
  const session = useSession();
  const publicInfo = usePublicInfo();
  const signOut = useSignOut('/auth');
  const isAdmin = session.data?.user.isAdmin === true;
  const can = useCan();
  const supportUrl = safeExternalUrl(publicInfo.data?.supportChatUrl);
  // Staff have no recovery phrase (the server refuses them the phrase routes).
  const accountEntries = NAV_ENTRIES.filter(
    (e) => e.group === 'account' && !(isAdmin && e.customerOnly),
  );
  // A staff member sees the screens their roles can read; the server refuses the rest anyway.
  const adminEntries = isAdmin
    ? NAV_ENTRIES.filter((e) => e.group === 'admin' && (!e.permission || can(e.permission)))
    : [];
  const waiting = useChanges({ enabled: isAdmin && can('back-office.read') }).data?.count ?? 0;

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
                  <EntryLink
                    entry={entry}
                    onNavigate={onNavigate}
                    badge={entry.changesBadge ? waiting : 0}
                  />
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
