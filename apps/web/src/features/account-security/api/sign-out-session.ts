import type { TOk } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionQueryOptions } from '@web/lib/session';
import { SIGN_OUT_KEY } from '@web/lib/sign-out-key';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { sessionsQueryOptions } from './get-sessions';

export function signOutSession(id: string): Promise<TOk> {
  return api.delete<TOk>(`/api/sessions/${encodeURIComponent(id)}`);
}

/** Signs out another of the customer's devices. */
export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutSession,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey });
    },
  });
}

/**
 * Ends this device's own session from the list: a sign-out like the menu's, to the sign-in
 * page. As there, it navigates while the mutation still counts as running (hence here, not
 * in a `mutate` callback), so the sign-in page does not send a still-known session back to
 * the dashboard, and the session is forgotten after the new page is drawn.
 */
export function useSignOutThisSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationKey: SIGN_OUT_KEY,
    mutationFn: signOutSession,
    onSuccess: () => {
      flushSync(() => void navigate('/auth'));
      queryClient.removeQueries({
        predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'public-info',
      });
      queryClient.setQueryData(sessionQueryOptions().queryKey, null);
      toast.success('Signed out', { description: 'You have been successfully signed out.' });
    },
  });
}
