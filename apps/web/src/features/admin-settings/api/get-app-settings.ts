import type { TAppSettingsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminSettingsKeys } from './keys';

export function getAppSettings(signal?: AbortSignal): Promise<TAppSettingsResponse> {
  return api.get<TAppSettingsResponse>('/api/admin/settings', signal);
}

export const appSettingsQueryOptions = () =>
  queryOptions({
    queryKey: adminSettingsKeys.settings(),
    queryFn: ({ signal }) => getAppSettings(signal),
  });

/** Every app setting, ordered by key. */
export function useAppSettings() {
  return useQuery(appSettingsQueryOptions());
}
