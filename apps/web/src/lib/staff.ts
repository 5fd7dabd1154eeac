import { rolesAllow, STAFF_MSG, type TPermission, type TProposedResponse } from '@coffer/shared';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { adminKeys } from './query-keys';
import { useSession } from './session';

/**
 * Whether the signed-in staff member's roles allow a permission, read from the session with
 * the table the server's gate uses (`PERMISSION_ROLES`): the screens leave out what a role
 * cannot do, the server stays the authority and refuses it anyway.
 */
export function useCan(): (permission: TPermission) => boolean {
  const session = useSession();
  const roles = session.data?.user.staffRoles ?? [];
  return (permission) => rolesAllow(roles, permission);
}

/** The changes queue (and the menu's count) after a proposal or a decision. */
export function refreshChanges(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: adminKeys.changes() });
}

/**
 * What a proposing screen says when the server answered 202: nothing changed yet, another
 * staff member must approve it (or a sentence of the screen's own); the change's summary
 * says what waits.
 */
export function tellProposed(answer: TProposedResponse, title: string = STAFF_MSG.proposed): void {
  toast.info(title, { description: answer.pending.summary });
}
