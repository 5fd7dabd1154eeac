import type { TOk } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

/** Re-checks the account password; the server then lets this session read the phrase for a while. */
export function unlockPhrase(password: string): Promise<TOk> {
  return api.post<TOk>('/api/recovery-phrase/unlock', { password });
}

export function useUnlockPhrase() {
  // gcTime 0: the password (the mutation's variables) is not kept once the gate is gone.
  return useMutation({ mutationFn: unlockPhrase, gcTime: 0 });
}
