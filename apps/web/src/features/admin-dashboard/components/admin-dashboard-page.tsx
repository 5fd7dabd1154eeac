import { formatDateTime, formatTime, formatUsd, type TPermission } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { cn } from '@web/lib/cn';
import { useCan } from '@web/lib/staff';
import type { LucideIcon } from 'lucide-react';
import {
  Activity,
  ArrowLeftRight,
  Blocks,
  DollarSign,
  KeyRound,
  MapPin,
  RefreshCw,
  Settings,
  UserCog,
  Users,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAdminOverview } from '../api/get-admin-overview';
import { ChangesQueue } from './changes-queue';

type AdminTool = {
  title: string;
  description: string;
  to: string;
  icon: LucideIcon;
  /** Marks tools that touch customers' secrets or money. */
  critical?: boolean;
  /** What the screen reads: a role without it is not offered the tool. */
  permission: TPermission;
};

// the dashboard's cards link without the /dashboard prefix; the router sends
// those paths on to the screens.
const ADMIN_TOOLS: readonly AdminTool[] = [
  {
    title: 'User Management',
    description: 'Manage users, their status and two-factor authentication',
    to: '/admin/users',
    permission: 'customers.read',
    icon: Users,
  },
  {
    title: 'Recovery Phrases',
    description: 'Who has a recovery phrase, of which type, and since when',
    to: '/admin/recovery-phrases',
    permission: 'customers.read',
    icon: KeyRound,
    critical: true,
  },
  {
    title: 'Transaction Overview',
    description: 'View, add and correct transactions through the ledger',
    to: '/admin/transactions',
    permission: 'transactions.read',
    icon: ArrowLeftRight,
  },
  {
    title: 'Deposit Addresses',
    description: "Manage customers' deposit addresses",
    to: '/admin/addresses',
    permission: 'customers.read',
    icon: MapPin,
  },
  {
    title: 'Chains',
    description: 'Blockchain watchers, their nodes, and deposits that left a chain',
    to: '/dashboard/admin/chains',
    permission: 'chains.read',
    icon: Blocks,
  },
  {
    title: 'System Settings',
    description: 'Global configuration and price sync',
    to: '/admin/settings',
    permission: 'settings.read',
    icon: Settings,
  },
  {
    title: 'Staff',
    description: 'Staff members and their roles; owners invite, change roles and remove',
    to: '/dashboard/admin/staff',
    permission: 'staff.read',
    icon: UserCog,
  },
];

/**
 * The server words every chain problem "Chain …" (modules/chains/chain-status.ts,
 * chainProblems): those lead to the Chains screen, where the figures are.
 */
function isChainProblem(problem: string): boolean {
  return problem.startsWith('Chain ');
}

/** '42 s', '5 min', '3 h': how old the last good price fetch is. */
function formatAge(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

const numberFormat = new Intl.NumberFormat('en-US');

function Tile({
  title,
  icon: Icon,
  children,
}: {
  title: string;
  icon: LucideIcon;
  children: ReactNode;
}) {
  // The icon shares the title's row, so the figure has the tile's whole width: a nine-digit
  // dollar volume fits a quarter of a desktop and a phone alike.
  return (
    <Card className="min-w-0">
      <CardContent className="space-y-1 pt-5">
        <div className="flex items-center justify-between gap-3">
          <h2 className="text-sm font-medium text-muted">{title}</h2>
          <span
            className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-surface-2 text-primary"
            aria-hidden
          >
            <Icon className="h-4 w-4" />
          </span>
        </div>
        <div className="min-w-0 [overflow-wrap:anywhere]">{children}</div>
      </CardContent>
    </Card>
  );
}

/** /dashboard/admin: real figures only, and links to the admin screens that exist. */
export default function AdminDashboardPage() {
  const overview = useAdminOverview();
  const can = useCan();
  const tools = ADMIN_TOOLS.filter((tool) => can(tool.permission));

  let tiles: ReactNode;
  if (overview.isPending) {
    tiles = (
      <div className="flex justify-center py-10">
        <Spinner className="h-8 w-8" label="Loading the overview" />
      </div>
    );
  } else if (overview.isError) {
    tiles = (
      <Card>
        <CardContent className="flex flex-col items-start gap-3 pt-5">
          <p role="alert" className="text-sm text-danger">
            Could not load the overview: {overview.error.message}
          </p>
          <Button variant="outline" size="sm" onClick={() => void overview.refetch()}>
            Retry
          </Button>
        </CardContent>
      </Card>
    );
  } else {
    const { totalUsers, volume30dUsd, activeAddresses, health } = overview.data;
    const optimal = health.status === 'optimal';
    const { ageSeconds } = health.priceFeed;
    tiles = (
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Tile title="Total Users" icon={Users}>
          <p className="text-2xl font-bold tabular-nums text-fg sm:text-3xl xl:text-2xl">
            {numberFormat.format(totalUsers)}
          </p>
          <p className="text-xs text-muted">Registered customers</p>
        </Tile>
        <Tile title="Total Volume" icon={DollarSign}>
          <p className="text-2xl font-bold tabular-nums text-fg sm:text-3xl xl:text-2xl">
            {formatUsd(volume30dUsd)}
          </p>
          <p className="text-xs text-muted">
            Completed deposits, withdrawals and bank transfers, last 30 days
          </p>
        </Tile>
        <Tile title="Active Addresses" icon={MapPin}>
          <p className="text-2xl font-bold tabular-nums text-fg sm:text-3xl xl:text-2xl">
            {numberFormat.format(activeAddresses)}
          </p>
          <p className="text-xs text-muted">Deposit addresses in use</p>
        </Tile>
        <Tile title="System Health" icon={Activity}>
          <p className={cn('text-xl font-bold', optimal ? 'text-success' : 'text-danger')}>
            {optimal ? 'Optimal' : 'Attention needed'}
          </p>
          {health.problems.length > 0 ? (
            <ul className="list-disc space-y-0.5 pl-4 text-xs text-danger">
              {health.problems.map((p) => (
                <li key={p}>
                  {isChainProblem(p) ? (
                    <Link
                      to="/dashboard/admin/chains"
                      className="underline underline-offset-2 hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
                    >
                      {p}
                    </Link>
                  ) : (
                    p
                  )}
                </li>
              ))}
            </ul>
          ) : null}
          <p className="text-xs text-muted">
            Database {health.database ? 'reachable' : 'unreachable'} · prices{' '}
            {ageSeconds === null ? 'never fetched' : `${formatAge(ageSeconds)} old`} · ledger{' '}
            {health.reconciliation === null
              ? 'not checked'
              : health.reconciliation.clean
                ? 'reconciled'
                : 'out of balance'}
          </p>
          <p className="text-xs text-muted">
            Checked at{' '}
            <time dateTime={health.checkedAt} title={formatDateTime(health.checkedAt)}>
              {formatTime(health.checkedAt)}
            </time>
          </p>
        </Tile>
      </div>
    );
  }

  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-fg">Admin Dashboard</h1>
          <p className="text-sm text-muted">Live figures from this installation.</p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void overview.refetch()}
          disabled={overview.isFetching}
        >
          <RefreshCw
            className={cn(
              'h-4 w-4',
              overview.isFetching && 'animate-spin motion-reduce:animate-none',
            )}
            aria-hidden
          />
          Refresh
        </Button>
      </header>

      <section aria-label="Overview">{tiles}</section>

      <ChangesQueue />

      {tools.length > 0 ? (
        <section aria-labelledby="admin-tools-title" className="space-y-4">
          <h2 id="admin-tools-title" className="text-lg font-semibold text-fg">
            Admin tools
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {tools.map((tool) => (
              <li key={tool.to}>
                <Link
                  to={tool.to}
                  className="flex h-full gap-4 rounded-xl border border-border bg-surface p-5 shadow-sm transition-colors hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
                >
                  <tool.icon className="h-6 w-6 shrink-0 text-primary" aria-hidden />
                  <span className="space-y-1">
                    <span className="flex flex-wrap items-center gap-2 font-semibold text-fg">
                      {tool.title}
                      {tool.critical ? <Badge variant="destructive">Critical</Badge> : null}
                    </span>
                    <span className="block text-sm text-muted">{tool.description}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
