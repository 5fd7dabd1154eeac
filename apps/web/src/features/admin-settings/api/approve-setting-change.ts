import type { TAppSettingsResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { appSettingsQueryOptions } from './get-app-settings';

export function approveSettingChange(input: {
  id: string;
  stepUp: TStepUp;
}): Promise<TAppSettingsResponse> {
  return api.post<TAppSettingsResponse>(
    `/api/admin/settings/changes/${encodeURIComponent(input.id)}/approve`,
    { stepUp: input.stepUp },
  );
}

/** Another admin's approval: the proposed value applies at once, for every screen. */
export function useApproveSettingChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveSettingChange,
    onSuccess: (data) => {
      queryClient.setQueryData(appSettingsQueryOptions().queryKey, data);
      void queryClient.invalidateQueries();
    },
    // Decided by someone else meanwhile (409): the list is refetched either way.
    onError: () => void queryClient.invalidateQueries(appSettingsQueryOptions()),
  });
}
