import {
  DISABLE_REASON_MISSING,
  type TAdminUserFigures,
  type TAdminUserRow,
  WAIVE_TWO_FACTOR_REASON_MISSING,
} from '@coffer/shared';
import { MailCheck, RefreshCw, Search, UserCheck, UserPlus, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { SummaryCard, SummaryGrid } from '../../../components/admin/summary-cards';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { PageSpinner, Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { cn } from '../../../lib/cn';
import { formatUsd } from '../../../lib/money/format';
import { useSession } from '../../../lib/session';
import { useDebounced } from '../../../lib/use-debounced';
import {
  ADMIN_USERS_PAGE_SIZE,
  useAdminUserFigures,
  useAdminUsers,
  useRefreshAdminUsers,
} from '../api/get-admin-users';
import { useDisableTwoFactor, useSetTwoFactorRequired } from '../api/two-factor-actions';
import { ReasonDialog } from './reason-dialog';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';
import { SecurityActivityButton } from './security-activity-dialog';
import { StaffList } from './staff-list';
import { StakingTime } from './staking-time';
import { UnfreezeReview } from './unfreeze-review';

const REQUIRED_FAILED = 'Failed to update 2FA requirement. Please try again.';

const numberFormat = new Intl.NumberFormat('en-US');
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** name, else username, else 'Unknown User'. */
export function displayName(u: Pick<TAdminUserRow, 'fullName' | 'username'>): string {
  return u.fullName?.trim() || u.username?.trim() || 'Unknown User';
}

/** /dashboard/admin/users. */
export default function AdminUsersPage() {
  const session = useSession();
  if (session.isPending) return <PageSpinner />;
  if (!session.data?.user.isAdmin) {
    return (
      <p role="alert" className="mx-auto max-w-xl p-8 text-center text-lg text-fg">
        Access Denied - You don't have permission to access this page.
      </p>
    );
  }
  return <UsersManagement />;
}

function UsersManagement() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search.trim(), 300);
  const users = useAdminUsers({ q, page });
  const refreshUsers = useRefreshAdminUsers({ q, page });
  const rows = users.data?.users ?? [];
  const ids = useMemo(() => rows.map((r) => r.id), [rows]);
  const figures = useAdminUserFigures(ids);
  const liveFigures = useMemo(() => {
    const map = new Map<string, TAdminUserFigures>();
    for (const f of figures.data?.figures ?? []) map.set(f.id, f);
    return map;
  }, [figures.data]);
  const [resetting, setResetting] = useState<{ id: string; name: string } | null>(null);
  const [waiving, setWaiving] = useState<{ id: string; name: string } | null>(null);
  // Disable 2FA names the customer, asks why and takes the admin's step-up.
  const [disabling, setDisabling] = useState<{ id: string; name: string } | null>(null);
  const setRequired = useSetTwoFactorRequired();
  const disable = useDisableTwoFactor();

  function toggleRequired(user: TAdminUserRow, required: boolean) {
    // Waiving 2FA is confirmed with a reason; requiring it again is one click.
    if (!required) {
      setWaiving({ id: user.id, name: displayName(user) });
      return;
    }
    setRequired.mutate(
      { userId: user.id, required },
      {
        onSuccess: () =>
          toast.success('2FA Required', {
            description: `${displayName(user)}: two-factor authentication is now required.`,
          }),
        onError: () =>
          toast.error('Error', {
            description: REQUIRED_FAILED,
          }),
      },
    );
  }

  function disableFor(user: TAdminUserRow) {
    const name = displayName(user);
    setDisabling({ id: user.id, name: name === user.email ? name : `${name} (${user.email})` });
  }

  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_USERS_PAGE_SIZE));

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-fg">Users Management</h1>
          <p className="text-sm text-muted">
            Customers, their wallets and two-factor authentication.
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            void refreshUsers();
            void figures.refetch();
          }}
          disabled={users.isFetching}
        >
          <RefreshCw
            className={cn('h-4 w-4', users.isFetching && 'animate-spin motion-reduce:animate-none')}
            aria-hidden
          />
          Refresh Data
        </Button>
      </header>

      {users.data ? (
        <SummaryGrid>
          <SummaryCard
            title="Total Users"
            value={users.data.summary.totalUsers}
            note="Registered customers"
            icon={Users}
          />
          <SummaryCard
            title="Active Users"
            value={users.data.summary.activeUsers}
            note="Status active"
            icon={UserCheck}
          />
          <SummaryCard
            title="New This Month"
            value={users.data.summary.newThisMonth}
            note="Joined this calendar month"
            icon={UserPlus}
          />
          <SummaryCard
            title="Verified"
            value={users.data.summary.emailVerified}
            note="E-mail address confirmed"
            icon={MailCheck}
          />
        </SummaryGrid>
      ) : null}

      <Card>
        <CardContent className="space-y-4 pt-5">
          <div className="relative max-w-sm">
            <Search
              className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
              aria-hidden
            />
            <Input
              type="search"
              aria-label="Search users"
              placeholder="Search by name, username or e-mail"
              className="pl-9"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(1);
              }}
            />
          </div>

          {users.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner className="h-8 w-8" label="Loading users" />
            </div>
          ) : users.isError ? (
            <div role="alert" className="space-y-1 py-8 text-center">
              <p className="font-semibold text-danger">Error loading users</p>
              <p className="text-sm text-muted">{users.error.message}</p>
            </div>
          ) : rows.length === 0 ? (
            <p className="py-8 text-center text-muted">No users found</p>
          ) : (
            <div className="-mx-5 overflow-x-auto px-5">
              <table className="w-full min-w-[1100px] text-left text-sm">
                <caption className="sr-only">Users</caption>
                <thead className="border-b border-border text-xs uppercase text-muted">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      User
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Status
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Portfolio Balance
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Staking Balance
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Staking Time
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Joined
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Last Login
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      2FA Required
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Actions
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-border">
                  {rows.map((u) => {
                    const name = displayName(u);
                    const f = liveFigures.get(u.id) ?? u.figures;
                    return (
                      <tr key={u.id} className="align-top">
                        <td className="py-3 pr-4">
                          <div className="flex items-center gap-3">
                            <span
                              aria-hidden
                              className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-surface-2 font-semibold text-primary"
                            >
                              {name.charAt(0).toUpperCase()}
                            </span>
                            <div className="min-w-0">
                              <p className="font-medium text-fg">{name}</p>
                              <p className="text-xs text-muted">
                                <span className="font-mono">{u.id.slice(0, 8)}</span> · {u.email}
                              </p>
                            </div>
                          </div>
                        </td>
                        <td className="py-3 pr-4">
                          <Badge variant={u.status === 'active' ? 'success' : 'secondary'}>
                            {u.status}
                          </Badge>
                        </td>
                        <td className="py-3 pr-4 tabular-nums" data-testid="portfolio-usd">
                          {formatUsd(f.portfolioUsd)}
                        </td>
                        <td className="py-3 pr-4 tabular-nums" data-testid="staking-usd">
                          {formatUsd(f.stakingUsd)}
                        </td>
                        <td className="py-3 pr-4">
                          <StakingTime value={f.stakingTime} />
                        </td>
                        <td className="py-3 pr-4 whitespace-nowrap">
                          {dateFormat.format(new Date(u.createdAt))}
                        </td>
                        <td className="py-3 pr-4 whitespace-nowrap">
                          {u.lastLogin ? dateTimeFormat.format(new Date(u.lastLogin)) : 'Never'}
                        </td>
                        <td className="py-3 pr-4">
                          <Switch
                            checked={u.twoFactorRequired}
                            disabled={setRequired.isPending}
                            onCheckedChange={(checked) => toggleRequired(u, checked)}
                            aria-label={`2FA required for ${name}`}
                          />
                        </td>
                        <td className="py-3">
                          <div className="flex flex-wrap items-center gap-2">
                            <Button
                              size="sm"
                              variant="outline"
                              onClick={() => setResetting({ id: u.id, name })}
                            >
                              Reset 2FA
                            </Button>
                            <SecurityActivityButton user={{ id: u.id, name }} />
                            <Badge variant={u.twoFactorEnabled ? 'success' : 'outline'}>
                              {u.twoFactorEnabled ? '2FA Enabled' : '2FA Disabled'}
                            </Badge>
                            {u.frozen ? <UnfreezeReview user={{ id: u.id, name }} /> : null}
                            {u.twoFactorEnabled ? (
                              <Button
                                size="sm"
                                variant="danger"
                                disabled={disable.isPending}
                                onClick={() => disableFor(u)}
                                aria-label={`Disable 2FA for ${name}`}
                              >
                                Disable 2FA
                              </Button>
                            ) : null}
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}

          {total > ADMIN_USERS_PAGE_SIZE ? (
            <nav aria-label="Pages" className="flex items-center justify-between gap-2 text-sm">
              <Button
                size="sm"
                variant="outline"
                disabled={page <= 1}
                onClick={() => setPage((p) => p - 1)}
              >
                Previous
              </Button>
              <span className="text-muted">
                Page {page} of {pages} · {numberFormat.format(total)} users
              </span>
              <Button
                size="sm"
                variant="outline"
                disabled={page >= pages}
                onClick={() => setPage((p) => p + 1)}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </CardContent>
      </Card>

      <StaffList />

      <ResetTwoFactorDialog user={resetting} onOpenChange={(open) => !open && setResetting(null)} />
      <ReasonDialog
        open={waiving !== null}
        onOpenChange={(open) => !open && setWaiving(null)}
        title="Stop requiring 2FA?"
        description={`${waiving?.name ?? 'This customer'} will be able to sign in with a password alone. Say why: the reason goes to the audit log, and the customer is told by e-mail.`}
        confirmLabel="Stop requiring 2FA"
        pendingLabel="Saving..."
        missingReason={WAIVE_TWO_FACTOR_REASON_MISSING}
        failed={REQUIRED_FAILED}
        onConfirm={async (reason) => {
          if (!waiving) return;
          await setRequired.mutateAsync({ userId: waiving.id, required: false, reason });
          toast.success('2FA Not Required', {
            description: `${waiving.name}: two-factor authentication is no longer required. They were told by e-mail.`,
          });
        }}
      />
      <ReasonDialog
        open={disabling !== null}
        onOpenChange={(open) => !open && setDisabling(null)}
        title="Turn off two-factor authentication?"
        description={`${disabling?.name ?? 'This customer'} loses their authenticator and passkeys, is signed out everywhere and is put on a security hold. Say why: the reason goes to the audit log and to the customer by e-mail.`}
        confirmLabel="Disable 2FA"
        pendingLabel="Disabling..."
        missingReason={DISABLE_REASON_MISSING}
        failed="Failed to disable 2FA. Please try again."
        stepUpTitle="Confirm with your own second factor"
        onConfirm={async (reason, stepUp) => {
          if (!disabling || !stepUp) return;
          await disable.mutateAsync({ userId: disabling.id, reason, stepUp });
          toast.success('2FA Disabled', {
            description: `${disabling.name} no longer has two-factor authentication. They were told by e-mail.`,
          });
        }}
      />
    </div>
  );
}
