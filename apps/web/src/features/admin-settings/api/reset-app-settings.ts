import type { TUpdateSettingsResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appSettingsQueryOptions } from './get-app-settings';

export function resetAppSettings(): Promise<TUpdateSettingsResponse> {
  return api.post<TUpdateSettingsResponse>('/api/admin/settings/reset');
}

/** Puts every setting back to its default. */
export function useResetAppSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetAppSettings,
    onSuccess: (data) => {
      queryClient.setQueryData(appSettingsQueryOptions().queryKey, { settings: data.settings });
      void queryClient.invalidateQueries();
    },
  });
}
