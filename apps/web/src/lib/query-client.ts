import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** Stale time 5 minutes and one retry; auth failures are never retried. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5 * 60 * 1000,
      retry: (count, err) =>
        !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});
