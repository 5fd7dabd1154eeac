import type { TRecoveryPhraseResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { recoveryPhraseKeys } from './keys';

export function getPhrase(signal?: AbortSignal): Promise<TRecoveryPhraseResponse> {
  return api.get<TRecoveryPhraseResponse>('/api/recovery-phrase', signal);
}

// The phrase must not outlive the screen that shows it: nothing is kept once the last
// observer unmounts (gcTime 0), and it is always fetched afresh.
export const phraseQueryOptions = () =>
  queryOptions({
    queryKey: recoveryPhraseKeys.phrase(),
    queryFn: ({ signal }) => getPhrase(signal),
    staleTime: 0,
    gcTime: 0,
  });

/** The user's recovery phrase; readable only after `unlockPhrase` succeeded. */
export function usePhrase({ enabled }: { enabled: boolean }) {
  return useQuery({ ...phraseQueryOptions(), enabled });
}
