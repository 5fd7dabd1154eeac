import type { TSettingsStepUpRequest, TUpdateSettingsResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function resetAppSettings(body: TSettingsStepUpRequest): Promise<TUpdateSettingsResponse> {
  return api.post<TUpdateSettingsResponse>('/api/admin/settings/reset', body);
}

/** Puts every setting back to its default; the risk settings among them wait for approval. */
export function useResetAppSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetAppSettings,
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
