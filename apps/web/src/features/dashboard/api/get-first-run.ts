import type { TFirstRunResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { dashboardKeys } from './keys';

/** How long an open checklist's state is taken as current. */
const OPEN_FRESH_MS = 60_000;

export function getFirstRun(signal?: AbortSignal): Promise<TFirstRunResponse> {
  return api.get<TFirstRunResponse>('/api/first-run', signal);
}

/** True once the checklist has nothing more to show: every step done, or closed. */
export function firstRunClosed(state: TFirstRunResponse): boolean {
  return state.dismissed || (state.kyc === 'approved' && state.deposited && state.passkey);
}

export const firstRunQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.firstRun(),
    queryFn: ({ signal }) => getFirstRun(signal),
    // Open, it is read again whenever the dashboard opens (a step may have been done on
    // another screen): the dashboard's one read brings it, and what it brought stays good
    // for the minute the page takes to show. Closed, it stays closed, so one read per visit
    // to the app is enough.
    staleTime: (query) => {
      const state = query.state.data;
      return state && firstRunClosed(state) ? Number.POSITIVE_INFINITY : OPEN_FRESH_MS;
    },
  });

/** The first-run checklist's steps and whether the customer closed it; not asked when off. */
export function useFirstRun(enabled: boolean) {
  return useQuery({ ...firstRunQueryOptions(), enabled });
}
