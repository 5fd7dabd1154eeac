import type { TUpdateSettingsRequest, TUpdateSettingsResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appSettingsQueryOptions } from './get-app-settings';

export function updateAppSettings(body: TUpdateSettingsRequest): Promise<TUpdateSettingsResponse> {
  return api.put<TUpdateSettingsResponse>('/api/admin/settings', body);
}

/**
 * Saves the changed settings. Settings change what every screen shows (money switches,
 * the staking rate, the support link), so every cached answer is refetched afterwards.
 */
export function useUpdateAppSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAppSettings,
    onSuccess: (data) => {
      queryClient.setQueryData(appSettingsQueryOptions().queryKey, { settings: data.settings });
      void queryClient.invalidateQueries();
    },
  });
}
