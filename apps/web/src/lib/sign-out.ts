import { useMutation, useQueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api } from './api-client';
import { sessionQueryOptions } from './session';
import { SIGN_OUT_KEY } from './sign-out-key';

export function signOut() {
  return api.post<{ ok: true }>('/api/auth/sign-out');
}

/** Signs out and goes to `to`: '/' from the top bar, '/auth' from the menu. */
export function useSignOut(to: '/' | '/auth') {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationKey: SIGN_OUT_KEY,
    mutationFn: signOut,
    onSuccess: async () => {
      // Navigate first, while this mutation still counts as running: the gate would
      // otherwise see the session vanish and send the user to /auth?next=… instead. The
      // new location is rendered before the session is cleared (flushSync; the router
      // does not defer location changes, see router.tsx).
      flushSync(() => void navigate(to));
      queryClient.removeQueries({
        predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'public-info',
      });
      queryClient.setQueryData(sessionQueryOptions().queryKey, null);
      toast.success('Signed out', { description: 'You have been successfully signed out.' });
    },
    onError: () => {
      toast.error('Failed to sign out. Please try again.');
    },
  });
}
