import type {
  TProposedResponse,
  TStaffInviteRequest,
  TStaffRemovedResponse,
  TStaffRemoveRequest,
  TStaffRolesRequest,
} from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';
import { adminStaffKeys } from './keys';

/** An invitation is proposed (202): it is sent when another owner approves it. */
export function inviteStaff(body: TStaffInviteRequest): Promise<TProposedResponse> {
  return api.post<TProposedResponse>('/api/admin/staff/invitations', body);
}

/** New roles are proposed (202): they apply when another owner approves them. */
export function changeStaffRoles(id: string, body: TStaffRolesRequest) {
  return api.put<TProposedResponse>(`/api/admin/staff/${encodeURIComponent(id)}/roles`, body);
}

/** Removing takes one owner, at once: fewer hands on the money is never a risk. */
export function removeStaff(id: string, body: TStaffRemoveRequest) {
  return api.delete<TStaffRemovedResponse>(`/api/admin/staff/${encodeURIComponent(id)}`, body);
}

/** Proposals change nothing yet: only the changes queue is refreshed. */
export function useInviteStaff() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: inviteStaff, onSuccess: () => refreshChanges(queryClient) });
}

export function useChangeStaffRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TStaffRolesRequest }) =>
      changeStaffRoles(id, body),
    onSuccess: () => refreshChanges(queryClient),
  });
}

export function useRemoveStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TStaffRemoveRequest }) => removeStaff(id, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminStaffKeys.list() }),
        refreshChanges(queryClient),
      ]),
    // The last owner (409) or someone removed meanwhile: the list as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: adminStaffKeys.list() }),
  });
}
