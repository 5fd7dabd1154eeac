import type { TAdminChatRoom, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatKeys } from '@web/components/chat/chat-api';
import { api } from '@web/lib/api-client';

export function closeRoom(input: {
  roomId: string;
  stepUp: TStepUp;
}): Promise<{ room: TAdminChatRoom }> {
  return api.post<{ room: TAdminChatRoom }>(
    `/api/admin/chat/rooms/${encodeURIComponent(input.roomId)}/close`,
    { stepUp: input.stepUp },
  );
}

/** Closes a conversation (never deletes it): its messages stay, the customer still reads them. */
export function useCloseRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeRoom,
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.rooms('/api/admin/chat') }),
  });
}
