import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api } from '../../../lib/api-client';
import { sessionQueryOptions } from './get-session';

export function signOut() {
  return api.post<{ ok: true }>('/api/auth/sign-out');
}

/** Signs out and goes to `to`: '/' from the top bar, '/auth' from the menu (customer.md §2). */
export function useSignOut(to: '/' | '/auth') {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'public-info' });
      queryClient.setQueryData(sessionQueryOptions().queryKey, null);
      toast.success('Signed out', { description: 'You have been successfully signed out.' });
      await navigate(to);
    },
    onError: () => {
      toast.error('Failed to sign out. Please try again.');
    },
  });
}
