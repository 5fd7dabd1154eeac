import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatKeys } from '@web/components/chat/chat-api';
import { api } from '@web/lib/api-client';

export function deleteRoom(roomId: string) {
  return api.delete(`/api/admin/chat/rooms/${roomId}`, {});
}

/** Deletes a whole conversation: files and messages, then the room. */
export function useDeleteRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRoom,
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.rooms('/api/admin/chat') }),
  });
}
