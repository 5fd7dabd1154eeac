import { formatDateTime, STAFF_RESET_REASON_MISSING } from '@coffer/shared';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-picker';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { CustomerText } from '@web/components/ui/customer-text';
import { EmailText } from '@web/components/ui/email-text';
import { ScrollRegion } from '@web/components/ui/scroll-region';
import { Spinner } from '@web/components/ui/spinner';
import { useSession } from '@web/lib/session';
import { tellProposed, useCan } from '@web/lib/staff';
import { useState } from 'react';
import { useStaff } from '../api/get-staff';
import { useResetStaffTwoFactor } from '../api/two-factor-actions';
import { ReasonDialog } from './reason-dialog';

/**
 * Issue 12: staff cannot use the recovery phrase, so an admin locked out of their second
 * factor is restored here by another admin, with a reason. Never on oneself: one's own
 * factor is changed in Settings, with the factor itself.
 */
export function StaffList() {
  const staff = useStaff();
  const session = useSession();
  const selfId = session.data?.user.id;
  const reset = useResetStaffTwoFactor();
  const mayManage = useCan()('staff.manage');
  const [resetting, setResetting] = useState<{ id: string; name: string } | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Staff</CardTitle>
        <CardDescription>
          Admins and their two-factor authentication. An admin locked out of their second factor is
          restored here by another admin.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {staff.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner className="h-6 w-6" label="Loading staff" />
          </div>
        ) : staff.isError ? (
          <p role="alert" className="py-4 text-sm text-danger">
            Error loading staff: {staff.error.message}
          </p>
        ) : (
          <ScrollRegion label="Staff" bleed>
            <table className="w-full min-w-[640px] text-left text-sm">
              <caption className="sr-only">Staff</caption>
              <thead className="border-b border-border text-xs uppercase text-muted">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Admin
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Last Login
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Two-factor
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {staff.data.staff.map((a) => {
                  const name = userDisplayName(a);
                  const email = userEmailBesideName(a);
                  const self = a.id === selfId;
                  return (
                    <tr key={a.id} className="align-top" data-testid="staff-row">
                      <td className="py-3 pr-4">
                        <p className="font-medium text-fg">
                          {name}
                          {self ? (
                            <Badge variant="secondary" className="ml-2">
                              You
                            </Badge>
                          ) : null}
                        </p>
                        {email ? (
                          <p className="text-xs text-muted">
                            <EmailText email={email} />
                          </p>
                        ) : null}
                      </td>
                      <td className="py-3 pr-4 whitespace-nowrap">
                        {a.lastLogin ? formatDateTime(a.lastLogin) : 'Never'}
                      </td>
                      <td className="py-3">
                        <div className="flex flex-wrap items-center gap-2">
                          <Badge variant={a.twoFactorEnabled ? 'success' : 'outline'}>
                            {a.twoFactorEnabled ? '2FA Enabled' : 'Not set up'}
                          </Badge>
                          {a.frozen ? <Badge variant="destructive">Frozen</Badge> : null}
                          {a.twoFactorEnabled && !self && mayManage ? (
                            <Button
                              size="sm"
                              variant="danger"
                              onClick={() => setResetting({ id: a.id, name })}
                              aria-label={`Reset 2FA for ${name}`}
                            >
                              Reset 2FA
                            </Button>
                          ) : null}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </CardContent>
      <ReasonDialog
        open={resetting !== null}
        onOpenChange={(open) => !open && setResetting(null)}
        title="Reset this admin's 2FA?"
        description={
          <>
            {resetting ? <CustomerText text={resetting.name} /> : 'This admin'} will be signed out
            everywhere and set up a new second factor at their next sign-in, with their own
            password. Their account is put on a security hold, and they are told by e-mail. Say why:
            the reason goes to the audit log.
          </>
        }
        confirmLabel="Reset 2FA"
        pendingLabel="Resetting..."
        missingReason={STAFF_RESET_REASON_MISSING}
        failed="Failed to reset 2FA. Please try again."
        stepUpTitle="Confirm with your own second factor"
        onConfirm={async (reason, stepUp) => {
          if (!resetting || !stepUp) return;
          // Proposed: it applies when another owner approves it.
          tellProposed(await reset.mutateAsync({ userId: resetting.id, reason, stepUp }));
        }}
      />
    </Card>
  );
}
