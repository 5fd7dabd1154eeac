import type { TAppSettingsResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';
import { appSettingsQueryOptions } from './get-app-settings';

export function rejectSettingChange(input: {
  id: string;
  stepUp: TStepUp;
}): Promise<TAppSettingsResponse> {
  return api.post<TAppSettingsResponse>(
    `/api/admin/settings/changes/${encodeURIComponent(input.id)}/reject`,
    { stepUp: input.stepUp },
  );
}

/** Drops a proposed change: another admin's rejection, or the proposer withdrawing it. */
export function useRejectSettingChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectSettingChange,
    onSuccess: (data) => {
      queryClient.setQueryData(appSettingsQueryOptions().queryKey, data);
      void refreshChanges(queryClient);
    },
    onError: () => void queryClient.invalidateQueries(appSettingsQueryOptions()),
  });
}
