import type { TChangesResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminDashboardKeys } from './keys';

export function getChanges(signal?: AbortSignal): Promise<TChangesResponse> {
  return api.get<TChangesResponse>('/api/admin/changes', signal);
}

// Another staff member's proposal shows within half a minute on a staff home left open.
export const changesQueryOptions = () =>
  queryOptions({
    queryKey: adminDashboardKeys.changes(),
    queryFn: ({ signal }) => getChanges(signal),
    staleTime: 10_000,
    refetchInterval: 30_000,
  });

/** The changes waiting for a second staff member, oldest first (decision 0036). */
export function useChanges({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...changesQueryOptions(), enabled });
}
