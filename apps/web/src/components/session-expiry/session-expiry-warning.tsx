import type { TSession, TSessionResponse } from '@coffer/shared';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionQueryOptions, useSession } from '@web/lib/session';
import {
  noteSecondsLeft,
  sessionExpirySnapshot,
  subscribeSessionExpiry,
} from '@web/lib/session-expiry';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { Button } from '../ui/button';
import { Dialog, DialogContent } from '../ui/dialog';

/** The warning comes this long before the idle deadline. */
const WARN_MS = 60_000;
const ENDED_TOAST_ID = 'session-ended';

/** The session as the server sees it now, asked in the background (it does not slide). */
function checkSession(queryClient: QueryClient): Promise<TSession | null> {
  return queryClient.fetchQuery({
    queryKey: sessionQueryOptions().queryKey,
    queryFn: async () =>
      (await api.get<TSessionResponse>('/api/session', undefined, { background: true })).session,
    staleTime: 0,
  });
}

function endedMessage(last: TSession): string {
  const { idleExpiresAt, absoluteExpiresAt, idleMinutes } = last.expiry;
  if (idleExpiresAt === absoluteExpiresAt) {
    return 'Your session reached its time limit and you were signed out. Sign in again to continue.';
  }
  return `You were signed out after ${idleMinutes} minutes without activity.`;
}

let watching = false;

/**
 * Says why on the sign-in page when the session ends by its timeout, however the tab
 * learns of it (this tab's own check, a refused request, the realtime socket closing):
 * the session vanishing after its deadline has passed. A sign-out or a revocation before
 * the deadline is not a timeout and says nothing here.
 */
function watchSessionEnd(queryClient: QueryClient): void {
  if (watching) return;
  watching = true;
  let last = queryClient.getQueryData<TSession | null>(sessionQueryOptions().queryKey) ?? null;
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryKey[0] !== 'session') return;
    if (event.query.state.status !== 'success') return;
    const now = event.query.state.data as TSession | null | undefined;
    if (now) {
      last = now;
      toast.dismiss(ENDED_TOAST_ID);
      return;
    }
    if (!last) return;
    const ended = last;
    last = null;
    const { deadline } = sessionExpirySnapshot();
    if (deadline === null || Date.now() < deadline - 2_000) return;
    toast.warning('Signed out', {
      id: ENDED_TOAST_ID,
      description: endedMessage(ended),
      duration: Number.POSITIVE_INFINITY,
    });
    // As a sign-out does: nothing of the account stays cached for whoever signs in next.
    queueMicrotask(() =>
      queryClient.removeQueries({
        predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'public-info',
      }),
    );
  });
}

function formatLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Warns a minute before the session's idle deadline and offers to stay signed in; when the
 * deadline passes, asks the server (another tab may have kept the session alive) and, if
 * the session is gone, the gate sends the user to the sign-in page, which says why.
 */
export function SessionExpiryWarning() {
  const queryClient = useQueryClient();
  const session = useSession();
  const { deadline } = useSyncExternalStore(subscribeSessionExpiry, sessionExpirySnapshot);
  const [warning, setWarning] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [staying, setStaying] = useState(false);

  useEffect(() => watchSessionEnd(queryClient), [queryClient]);

  // The session read at sign-in or page load says how long it has left, too.
  const expiry = session.data?.expiry;
  const readAt = session.dataUpdatedAt;
  useEffect(() => {
    if (expiry) noteSecondsLeft(expiry.secondsLeft, readAt - 1_000);
  }, [expiry, readAt]);

  useEffect(() => {
    if (deadline === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const check = async () => {
      try {
        await checkSession(queryClient);
        // A session that lives on answered with its deadline: this effect runs again.
      } catch {
        // Offline: ask again shortly rather than sign anyone out on a guess.
        if (!cancelled) timer = setTimeout(check, 10_000);
      }
    };
    const left = deadline - Date.now();
    setWarning(left <= WARN_MS);
    timer = setTimeout(check, left > WARN_MS ? left - WARN_MS : Math.max(left, 1_000));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [deadline, queryClient]);

  useEffect(() => {
    if (!warning) return;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(tick);
  }, [warning]);

  const current = session.data;
  if (!current || deadline === null) return null;
  const { idleExpiresAt, absoluteExpiresAt } = current.expiry;
  const atLimit = idleExpiresAt === absoluteExpiresAt;

  async function staySignedIn() {
    setStaying(true);
    try {
      // The user's own request: it slides the idle timer, and its answer moves the deadline.
      const res = await api.get<TSessionResponse>('/api/session', undefined, {
        background: false,
      });
      queryClient.setQueryData(sessionQueryOptions().queryKey, res.session);
    } catch {
      toast.error('Could not reach Coffer. Check your connection and try again.');
    } finally {
      setStaying(false);
    }
  }

  return (
    <Dialog
      open={warning}
      onOpenChange={(open) => {
        if (!open && !atLimit) void staySignedIn();
        if (!open && atLimit) setWarning(false);
      }}
    >
      <DialogContent
        title={atLimit ? 'Your session is ending' : 'Are you still there?'}
        description={
          atLimit
            ? `Your session reaches its time limit in ${formatLeft(deadline - now)}. Save your work: you will need to sign in again.`
            : `For your security you will be signed out in ${formatLeft(deadline - now)} without activity.`
        }
      >
        <div className="flex justify-end gap-2">
          {atLimit ? (
            <Button onClick={() => setWarning(false)}>OK</Button>
          ) : (
            <Button onClick={() => void staySignedIn()} disabled={staying}>
              Stay signed in
            </Button>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
