import { SECURITY_ACTIVITY_LIMIT } from '@coffer/shared';
import { SecurityActivityList } from '@web/components/security-activity/security-activity-list';
import { CustomerText } from '@web/components/ui/customer-text';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { LoadFailedAlert } from '@web/components/ui/load-failed-alert';
import { Spinner } from '@web/components/ui/spinner';
import { useUserSecurityActivity } from '../api/get-user-security-activity';

type Props = {
  user: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
};

/** A customer's security activity for staff; each opening is written to the audit log. */
export function SecurityActivityDialog({ user, onOpenChange }: Props) {
  const activity = useUserSecurityActivity(user?.id ?? null);
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent
        title="Security activity"
        description={
          <>
            {user ? <CustomerText text={user.name} /> : 'This customer'}: the last{' '}
            {SECURITY_ACTIVITY_LIMIT} sign-ins, refused attempts and security changes, newest first.
            This look is recorded in the audit log.
          </>
        }
        className="max-w-2xl"
      >
        {activity.isPending ? (
          <div className="flex items-center gap-3 py-2 text-sm text-muted">
            <Spinner label="Loading security activity" />
            Loading security activity...
          </div>
        ) : activity.isError ? (
          <LoadFailedAlert
            title="Security activity unavailable"
            error={activity.error}
            fallback="Could not load this customer's security activity."
            onRetry={() => void activity.refetch()}
          />
        ) : activity.data.events.length === 0 ? (
          <p className="py-2 text-sm text-muted">No security activity yet.</p>
        ) : (
          <SecurityActivityList events={activity.data.events} label="Security activity" />
        )}
      </DialogContent>
    </Dialog>
  );
}
