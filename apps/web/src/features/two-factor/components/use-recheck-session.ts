import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@web/lib/api-client';
import { sessionQueryOptions } from '@web/lib/session';

/** When the session ended meanwhile (signed out elsewhere), let the gate send them to /auth. */
export function useRecheckSessionOn() {
  const queryClient = useQueryClient();
  return (err: unknown) => {
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') {
      void queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey });
    }
  };
}
