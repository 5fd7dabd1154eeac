import { SECURITY_ACTIVITY_LIMIT } from '@coffer/shared';
import { SecurityActivityList } from '@web/components/security-activity/security-activity-list';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { LoadFailedAlert } from '@web/components/ui/load-failed-alert';
import { Spinner } from '@web/components/ui/spinner';
import { useSecurityActivity } from '../api/get-security-activity';

/** Settings → Security: the account's newest security events. */
export function SecurityActivityCard() {
  const activity = useSecurityActivity();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Security activity</CardTitle>
        <CardDescription>
          The last {SECURITY_ACTIVITY_LIMIT} sign-ins, refused attempts and security changes on your
          account, newest first. If you do not recognise one, change your password and sign out the
          devices you do not know.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {activity.isPending ? (
          <div className="flex items-center gap-3 py-2 text-sm text-muted">
            <Spinner label="Loading your security activity" />
            Loading your security activity...
          </div>
        ) : activity.isError ? (
          <LoadFailedAlert
            title="Security activity unavailable"
            error={activity.error}
            fallback="Could not load your security activity."
            onRetry={() => void activity.refetch()}
          />
        ) : activity.data.events.length === 0 ? (
          <p className="py-2 text-sm text-muted">No security activity yet.</p>
        ) : (
          <SecurityActivityList events={activity.data.events} label="Security activity" />
        )}
      </CardContent>
    </Card>
  );
}
