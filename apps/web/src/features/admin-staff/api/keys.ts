import { adminKeys } from '@web/lib/query-keys';

export const adminStaffKeys = {
  // The shared root: the users screen's Staff card reads the same list.
  list: () => adminKeys.staff(),
};
