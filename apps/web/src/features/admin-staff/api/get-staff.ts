import type { TAdminStaffList } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminStaffKeys } from './keys';

export function getStaff(signal?: AbortSignal): Promise<TAdminStaffList> {
  return api.get<TAdminStaffList>('/api/admin/staff', signal);
}

export const staffQueryOptions = () =>
  queryOptions({
    queryKey: adminStaffKeys.list(),
    queryFn: ({ signal }) => getStaff(signal),
  });

/** Every staff member with their roles, last sign-in, factors and hold. */
export function useStaff() {
  return useQuery(staffQueryOptions());
}
