import type { TGeneratePhraseResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { phraseQueryOptions } from './get-phrase';

export function generatePhrase(): Promise<TGeneratePhraseResponse> {
  return api.post<TGeneratePhraseResponse>('/api/recovery-phrase/generate');
}

/**
 * Creates the user's one and only phrase (or returns the existing one, `created: false`).
 * The answer goes straight into the phrase query and is not kept by the mutation cache.
 * `refreshSession` re-reads the session (its `hasRecoveryPhrase` changes); the mutation
 * stays pending until it has, so the route gate never sees the old value afterwards.
 */
export function useGeneratePhrase({ refreshSession }: { refreshSession: () => Promise<void> }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generatePhrase,
    gcTime: 0,
    onSuccess: async ({ phrase, createdAt, confirmedAt }) => {
      queryClient.setQueryData(phraseQueryOptions().queryKey, { phrase, createdAt, confirmedAt });
      // The gate redirects here while the session says there is no phrase.
      await refreshSession();
    },
  });
}
