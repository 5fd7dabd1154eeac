import { formatDateTime, STAFF_ROLE_LABELS, type TAdminStaffRow } from '@coffer/shared';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { STACKED } from '@web/components/admin/stacked-table';
import { ActionsCell, StackedCell, StackedTable } from '@web/components/admin/stacked-table-parts';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-directory';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { CustomerText } from '@web/components/ui/customer-text';
import { Dialog } from '@web/components/ui/dialog';
import { EmailText } from '@web/components/ui/email-text';
import { useSession } from '@web/lib/session';
import { useCan } from '@web/lib/staff';
import { UserPlus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useStaff } from '../api/get-staff';
import { RemoveStaffDialog } from './remove-staff-dialog';
import { StaffRolesDialog } from './staff-roles-dialog';

type Open =
  | { kind: 'invite' }
  | { kind: 'roles'; member: TAdminStaffRow }
  | { kind: 'remove'; member: TAdminStaffRow }
  | null;

function Factors({ member }: { member: TAdminStaffRow }) {
  return (
    <span className="flex flex-wrap gap-1.5 md:justify-start max-md:justify-end">
      <Badge variant={member.twoFactorEnabled ? 'success' : 'outline'}>
        {member.twoFactorEnabled ? '2FA' : 'No 2FA yet'}
      </Badge>
      <Badge variant={member.passkeys > 0 ? 'secondary' : 'outline'}>
        {member.passkeys === 1 ? '1 passkey' : `${member.passkeys} passkeys`}
      </Badge>
    </span>
  );
}

/** A security hold (after a reset of their factor: they read, change nothing) or a freeze. */
function Hold({ member }: { member: TAdminStaffRow }) {
  if (!member.frozen && !member.onHold) return <span className="text-muted">None</span>;
  return (
    <span className="flex flex-wrap gap-1.5 max-md:justify-end">
      {member.frozen ? <Badge variant="destructive">Frozen</Badge> : null}
      {member.onHold ? (
        <span className="text-sm text-fg">
          On hold
          {member.holdUntil ? (
            <span className="block text-xs text-muted">
              until <time dateTime={member.holdUntil}>{formatDateTime(member.holdUntil)}</time>
            </span>
          ) : null}
        </span>
      ) : null}
    </span>
  );
}

/**
 * /dashboard/admin/staff: who works in the back office, with which roles, when they last
 * signed in, their factors and any hold. An owner invites and changes roles (each proposed,
 * approved by another owner) and removes (at once); the other readers only look.
 */
export default function AdminStaffPage() {
  const staff = useStaff();
  const session = useSession();
  const can = useCan();
  const manage = can('staff.manage');
  const me = session.data?.user.id;
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  let body: ReactNode;
  if (staff.isPending) {
    body = <LoadingState label="Loading staff" className="py-8" />;
  } else if (staff.isError) {
    body = (
      <LoadError
        message={`Could not load the staff: ${staff.error.message}`}
        onRetry={() => void staff.refetch()}
        className="py-4"
      />
    );
  } else {
    body = (
      <StackedTable columns={['Staff member', 'Roles', 'Last sign-in', 'Factors', 'Hold']}>
        {staff.data.staff.map((m) => {
          const name = userDisplayName(m);
          const email = userEmailBesideName(m);
          const self = m.id === me;
          return (
            <tr key={m.id} className={STACKED.row} aria-label={m.email} data-testid="staff-row">
              <StackedCell label="Staff member">
                <span className="min-w-0 max-md:text-right">
                  <span className="block font-medium text-fg">
                    <CustomerText text={name} />
                    {self ? (
                      <Badge variant="secondary" className="ml-2">
                        You
                      </Badge>
                    ) : null}
                  </span>
                  {email ? (
                    <span className="block text-xs text-muted">
                      <EmailText email={email} />
                    </span>
                  ) : null}
                </span>
              </StackedCell>
              <StackedCell label="Roles">
                <span className="flex flex-wrap gap-1.5 max-md:justify-end">
                  {m.roles.length === 0 ? (
                    <span className="text-muted">None</span>
                  ) : (
                    m.roles.map((r) => (
                      <Badge key={r} variant="outline">
                        {STAFF_ROLE_LABELS[r]}
                      </Badge>
                    ))
                  )}
                </span>
              </StackedCell>
              <StackedCell label="Last sign-in" className="whitespace-nowrap">
                {m.lastLogin ? formatDateTime(m.lastLogin) : 'Never'}
              </StackedCell>
              <StackedCell label="Factors">
                <Factors member={m} />
              </StackedCell>
              <StackedCell label="Hold">
                <Hold member={m} />
              </StackedCell>
              <ActionsCell>
                {manage && !self ? (
                  <>
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Change roles of ${m.email}`}
                      onClick={() => setOpen({ kind: 'roles', member: m })}
                    >
                      Change roles
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      aria-label={`Remove ${m.email}`}
                      onClick={() => setOpen({ kind: 'remove', member: m })}
                    >
                      Remove
                    </Button>
                  </>
                ) : null}
              </ActionsCell>
            </tr>
          );
        })}
      </StackedTable>
    );
  }

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-fg">Staff</h1>
          <p className="text-sm text-muted">
            {manage
              ? 'Invitations and new roles wait for another owner’s approval; a removal applies at once.'
              : 'Who works in the back office and with which roles. Owners invite, change roles and remove.'}
          </p>
        </div>
        {manage ? (
          <Button onClick={() => setOpen({ kind: 'invite' })}>
            <UserPlus className="h-4 w-4" aria-hidden />
            Invite staff
          </Button>
        ) : null}
      </header>

      <Card>
        <CardContent className="pt-5">{body}</CardContent>
      </Card>

      <Dialog open={open !== null} onOpenChange={(isOpen) => (isOpen ? undefined : close())}>
        {open?.kind === 'invite' ? <StaffRolesDialog member={null} onDone={close} /> : null}
        {open?.kind === 'roles' ? (
          <StaffRolesDialog key={open.member.id} member={open.member} onDone={close} />
        ) : null}
        {open?.kind === 'remove' ? (
          <RemoveStaffDialog key={open.member.id} member={open.member} onDone={close} />
        ) : null}
      </Dialog>
    </div>
  );
}
