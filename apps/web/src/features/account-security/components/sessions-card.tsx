import type { TActiveSession } from '@coffer/shared';
import { formatDateTime } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { formatDistanceToNow } from 'date-fns';
import { Laptop, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useSessions } from '../api/get-sessions';
import { useSignOutOtherSessions } from '../api/sign-out-other-sessions';
import { useSignOutSession, useSignOutThisSession } from '../api/sign-out-session';

const MOBILE = /\b(iOS|Android)\b/;

/** Settings → Security: where the account is signed in, each device with its own sign-out. */
export function SessionsCard() {
  const sessions = useSessions();
  const signOutOne = useSignOutSession();
  const signOutThis = useSignOutThisSession();
  const signOutOthers = useSignOutOtherSessions();
  const [confirming, setConfirming] = useState(false);

  function endSession(session: TActiveSession) {
    (session.current ? signOutThis : signOutOne).mutate(session.id, {
      onSuccess: () => {
        if (session.current) return;
        toast.success('Device signed out', {
          description: `${session.device} was signed out of your account.`,
        });
      },
      onError: (err) => {
        if (err instanceof ApiError && err.code === 'NOT_FOUND') {
          toast.info('Already signed out', { description: err.message });
          return;
        }
        toast.error('Error', { description: errorMessage(err, 'Failed to sign out the device.') });
      },
    });
  }

  function endOthers() {
    signOutOthers.mutate(undefined, {
      onSuccess: ({ signedOut }) => {
        setConfirming(false);
        toast.success('Signed out everywhere else', {
          description:
            signedOut === 0
              ? 'No other device was signed in.'
              : `${signedOut} other device${signedOut === 1 ? ' was' : 's were'} signed out.`,
        });
      },
      onError: (err) => {
        toast.error('Error', {
          description: errorMessage(err, 'Failed to sign out the other devices.'),
        });
      },
    });
  }

  const others = sessions.data?.sessions.filter((s) => !s.current).length ?? 0;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Signed-in devices</CardTitle>
        <CardDescription>
          Where your account is signed in now. If you do not recognise a device, sign it out and
          change your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {sessions.isPending ? (
          <div className="flex items-center gap-3 py-2 text-sm text-muted">
            <Spinner label="Loading your devices" />
            Loading your devices...
          </div>
        ) : sessions.isError ? (
          <div className="flex flex-wrap items-center justify-between gap-3 py-2">
            <p role="alert" className="text-sm text-danger">
              {errorMessage(sessions.error, 'Could not load your signed-in devices.')}
            </p>
            <Button variant="outline" size="sm" onClick={() => void sessions.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <ul className="divide-y divide-border" aria-label="Signed-in devices">
            {sessions.data.sessions.map((s) => (
              <SessionRow
                key={s.id}
                session={s}
                busy={
                  (signOutOne.isPending && signOutOne.variables === s.id) ||
                  (signOutThis.isPending && s.current)
                }
                onSignOut={() => endSession(s)}
              />
            ))}
          </ul>
        )}
        <div className="flex justify-end border-t border-border pt-4">
          <Button
            variant="outline"
            className="w-full sm:w-auto"
            disabled={!sessions.isSuccess || others === 0}
            onClick={() => setConfirming(true)}
          >
            Sign out everywhere else
          </Button>
        </div>
      </CardContent>

      <Dialog open={confirming} onOpenChange={(open) => !open && setConfirming(false)}>
        <DialogContent
          title="Sign out everywhere else?"
          description="Every other device signed in to your account is signed out at once. This device stays signed in."
        >
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button
              variant="outline"
              onClick={() => setConfirming(false)}
              disabled={signOutOthers.isPending}
            >
              Cancel
            </Button>
            <Button variant="danger" onClick={endOthers} disabled={signOutOthers.isPending}>
              {signOutOthers.isPending ? 'Signing out...' : 'Sign out other devices'}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function SessionRow({
  session,
  busy,
  onSignOut,
}: {
  session: TActiveSession;
  busy: boolean;
  onSignOut: () => void;
}) {
  const Icon = MOBILE.test(session.device) ? Smartphone : Laptop;
  const signedIn = new Date(session.signedInAt);
  const lastSeen = new Date(session.lastSeenAt);
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <Icon className="mt-0.5 h-5 w-5 shrink-0 text-muted" aria-hidden />
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-fg">
            {session.device}
            {session.current ? <Badge variant="success">This device</Badge> : null}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs text-muted">
            <dt>Address</dt>
            <dd className="break-all font-mono">{session.ip ?? 'Unknown'}</dd>
            <dt>Signed in</dt>
            <dd>
              <time dateTime={session.signedInAt}>{formatDateTime(signedIn)}</time>
            </dd>
            <dt>Last seen</dt>
            <dd>
              <time dateTime={session.lastSeenAt} title={formatDateTime(lastSeen)}>
                {session.current ? 'Now' : formatDistanceToNow(lastSeen, { addSuffix: true })}
              </time>
            </dd>
          </dl>
        </div>
      </div>
      <Button
        variant="outline"
        size="sm"
        className="w-full shrink-0 sm:w-auto"
        disabled={busy}
        onClick={onSignOut}
        aria-label={session.current ? 'Sign out this device' : `Sign out ${session.device}`}
      >
        {busy ? 'Signing out...' : 'Sign out'}
      </Button>
    </li>
  );
}
