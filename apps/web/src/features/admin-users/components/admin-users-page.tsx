import type { TAdminUserFigures, TAdminUserRow, TStepUp } from '@coffer/shared';
import { userDisplayName, userNameWithEmail } from '@web/components/admin/user-picker';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { Pager } from '@web/components/ui/pager';
import { PageSpinner, Spinner } from '@web/components/ui/spinner';
import { cn } from '@web/lib/cn';
import { useSession } from '@web/lib/session';
import { useCan } from '@web/lib/staff';
import { useDebounced } from '@web/lib/use-debounced';
import { RefreshCw, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import {
  ADMIN_USERS_PAGE_SIZE,
  useAdminUserFigures,
  useAdminUsers,
  useRefreshAdminUsers,
} from '../api/get-admin-users';
import { useDisableTwoFactor, useSetTwoFactorRequired } from '../api/two-factor-actions';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';
import { SecurityActivityDialog } from './security-activity-dialog';
import { StaffList } from './staff-list';
import {
  DisableTwoFactorDialog,
  REQUIRED_FAILED,
  WaiveTwoFactorDialog,
} from './two-factor-reason-dialogs';
import { UserSummaryCards } from './user-summary-cards';
import { UsersTable } from './users-table';

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

/** The page's title, and Refresh for the list and its live figures. */
function UsersHeader({ refreshing, onRefresh }: { refreshing: boolean; onRefresh: () => void }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold text-fg">Users Management</h1>
        <p className="text-sm text-muted">
          Customers, their wallets and two-factor authentication.
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={onRefresh} disabled={refreshing}>
        <RefreshCw
          className={cn('h-4 w-4', refreshing && 'animate-spin motion-reduce:animate-none')}
          aria-hidden
        />
        Refresh Data
      </Button>
    </header>
  );
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
  // A customer's security activity, opened from their row menu (each look is audited).
  const [viewing, setViewing] = useState<{ id: string; name: string } | null>(null);
  const [waiving, setWaiving] = useState<{ id: string; name: string } | null>(null);
  // Disable 2FA names the customer, asks why and takes the admin's step-up.
  const [disabling, setDisabling] = useState<{ id: string; name: string } | null>(null);
  const setRequired = useSetTwoFactorRequired();
  const disable = useDisableTwoFactor();
  const can = useCan();

  // Requiring 2FA again waits for the staff member's step-up.
  const [requiring, setRequiring] = useState<{ id: string; name: string } | null>(null);

  function toggleRequired(user: TAdminUserRow, required: boolean) {
    // Waiving 2FA is confirmed with a reason and the step-up; requiring it with the step-up.
    if (!required) {
      setWaiving({ id: user.id, name: userDisplayName(user) });
      return;
    }
    setRequiring({ id: user.id, name: userDisplayName(user) });
  }

  async function confirmRequired(stepUp: TStepUp) {
    if (!requiring) return;
    await setRequired.mutateAsync({ userId: requiring.id, required: true, stepUp });
    toast.success('2FA Required', {
      description: `${requiring.name}: two-factor authentication is now required.`,
    });
    setRequiring(null);
  }

  function requiredFailed() {
    setRequiring(null);
    toast.error('Error', { description: REQUIRED_FAILED });
  }

  function disableFor(user: TAdminUserRow) {
    setDisabling({ id: user.id, name: userNameWithEmail(user) });
  }

  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_USERS_PAGE_SIZE));

  return (
    <div className="space-y-6">
      <UsersHeader
        refreshing={users.isFetching}
        onRefresh={() => {
          void refreshUsers();
          void figures.refetch();
        }}
      />

      {users.data ? <UserSummaryCards summary={users.data.summary} /> : null}

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
            <UsersTable
              rows={rows}
              liveFigures={liveFigures}
              requiredPending={setRequired.isPending}
              disablePending={disable.isPending}
              onToggleRequired={toggleRequired}
              onReset={setResetting}
              onDisable={disableFor}
              onActivity={setViewing}
            />
          )}

          {total > ADMIN_USERS_PAGE_SIZE ? (
            <Pager
              status={`Page ${page} of ${pages} · ${total.toLocaleString('en-US')} users`}
              canPrevious={page > 1}
              canNext={page < pages}
              onPrevious={() => setPage((p) => p - 1)}
              onNext={() => setPage((p) => p + 1)}
            />
          ) : null}
        </CardContent>
      </Card>

      {can('staff.read') ? <StaffList /> : null}

      <SecurityActivityDialog user={viewing} onOpenChange={(open) => !open && setViewing(null)} />
      <ResetTwoFactorDialog user={resetting} onOpenChange={(open) => !open && setResetting(null)} />
      <WaiveTwoFactorDialog
        customer={waiving}
        onClose={() => setWaiving(null)}
        setRequired={setRequired}
      />
      <DisableTwoFactorDialog
        customer={disabling}
        onClose={() => setDisabling(null)}
        disable={disable}
      />
      <StepUpDialog
        open={requiring !== null}
        title="Require two-factor authentication"
        description={requiring ? `${requiring.name} will need a second factor to sign in.` : ''}
        confirmLabel="Require 2FA"
        pendingLabel="Saving..."
        onCancel={() => setRequiring(null)}
        onConfirm={confirmRequired}
        onFailure={requiredFailed}
      />
    </div>
  );
}
