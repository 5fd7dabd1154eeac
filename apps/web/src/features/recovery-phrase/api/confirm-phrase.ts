import type { TConfirmPhraseResponse } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

/** Sends the whole phrase as the customer typed it back; the server compares it. */
export function confirmPhrase(phrase: string): Promise<TConfirmPhraseResponse> {
  return api.post<TConfirmPhraseResponse>('/api/recovery-phrase/confirm', { phrase });
}

/**
 * Confirms the phrase. gcTime 0: the typed words (the mutation's variables) are not kept
 * once the form is gone. The page records the confirmation in the phrase it holds.
 */
export function useConfirmPhrase() {
  return useMutation({ mutationFn: confirmPhrase, gcTime: 0 });
}
