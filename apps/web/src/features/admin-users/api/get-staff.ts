import type { TAdminStaffList } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminUsersKeys } from './keys';

export function getStaff(signal?: AbortSignal): Promise<TAdminStaffList> {
  return api.get<TAdminStaffList>('/api/admin/staff', signal);
}

export const staffQueryOptions = () =>
  queryOptions({
    queryKey: adminUsersKeys.staff(),
    queryFn: ({ signal }) => getStaff(signal),
  });

/** Every admin and the state of their second factor (the users screen's Staff list). */
export function useStaff() {
  return useQuery(staffQueryOptions());
}
