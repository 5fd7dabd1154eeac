import type { TChangesResponse } from '@coffer/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { usePollWhileOffline, useRealtime } from '@web/lib/realtime';
import { adminDashboardKeys } from './keys';

export function getChanges(signal?: AbortSignal): Promise<TChangesResponse> {
  return api.get<TChangesResponse>('/api/admin/changes', signal);
}

export const changesQueryOptions = () =>
  queryOptions({
    queryKey: adminDashboardKeys.changes(),
    queryFn: ({ signal }) => getChanges(signal),
    staleTime: 10_000,
  });

/**
 * The changes waiting for a second staff member, oldest first (decision 0036). Another
 * staff member's proposal or decision is announced on the socket (`changes.changed`) and
 * refetched then; only while the socket is down is the list polled.
 */
export function useChanges({ enabled = true }: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient();
  useRealtime(['changes.changed'], () => {
    if (enabled) void queryClient.invalidateQueries({ queryKey: adminDashboardKeys.changes() });
  });
  const refetchInterval = usePollWhileOffline(30_000);
  return useQuery({ ...changesQueryOptions(), enabled, refetchInterval });
}
