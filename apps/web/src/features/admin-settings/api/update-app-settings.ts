import type { TUpdateSettingsRequest, TUpdateSettingsResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

/**
 * 200 when every value was applied; 202 when some wait for another admin's approval
 * (`pending` lists them, `changed` what was applied).
 */
export function updateAppSettings(body: TUpdateSettingsRequest): Promise<TUpdateSettingsResponse> {
  return api.put<TUpdateSettingsResponse>('/api/admin/settings', body);
}

/**
 * Saves the changed settings. Settings change what every screen shows (money switches,
 * the staking rate, the support link), so every cached answer is refetched afterwards,
 * the settings' own pending list included.
 */
export function useUpdateAppSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAppSettings,
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
