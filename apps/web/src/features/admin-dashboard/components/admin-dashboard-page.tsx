import type { LucideIcon } from 'lucide-react';
import { Activity, RefreshCw, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useAdminOverview } from '../api/get-admin-overview';

type AdminTool = {
  title: string;
  description: string;
  to: string;
  icon: LucideIcon;
  /** Marks tools that touch customers' secrets or money. */
  critical?: boolean;
};

// One card per admin screen that exists; add each screen here when it lands.
const ADMIN_TOOLS: readonly AdminTool[] = [];

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
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-4 pt-5">
        <div className="min-w-0 space-y-1">
          <h2 className="text-sm font-medium text-muted">{title}</h2>
          {children}
        </div>
        <span
          className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-surface-2 text-primary"
          aria-hidden
        >
          <Icon className="h-5 w-5" />
        </span>
      </CardContent>
    </Card>
  );
}

/** /dashboard/admin: real figures only, and links to the admin screens that exist. */
export default function AdminDashboardPage() {
  const overview = useAdminOverview();

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
    const { totalUsers, health } = overview.data;
    const checkedAt = new Date(health.checkedAt);
    tiles = (
      <div className="grid gap-4 sm:grid-cols-2">
        <Tile title="Total Users" icon={Users}>
          <p className="text-3xl font-bold tabular-nums text-fg">
            {numberFormat.format(totalUsers)}
          </p>
        </Tile>
        <Tile title="System Health" icon={Activity}>
          <p className={cn('text-xl font-bold', health.database ? 'text-success' : 'text-danger')}>
            {health.database ? 'Database reachable' : 'Database unreachable'}
          </p>
          <p className="text-xs text-muted">
            Checked at{' '}
            <time dateTime={health.checkedAt} title={checkedAt.toLocaleString()}>
              {checkedAt.toLocaleTimeString()}
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

      {ADMIN_TOOLS.length > 0 ? (
        <section aria-labelledby="admin-tools-title" className="space-y-4">
          <h2 id="admin-tools-title" className="text-lg font-semibold text-fg">
            Admin tools
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {ADMIN_TOOLS.map((tool) => (
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
