import type { TChatRoomResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatKeys } from '@web/components/chat/chat-api';
import { api } from '@web/lib/api-client';

export function createRoom(): Promise<TChatRoomResponse> {
  return api.post<TChatRoomResponse>('/api/chat/rooms', {});
}

/** 'New Chat' (and the automatic first conversation of a customer with none). */
export function useCreateRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRoom,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.rooms('/api/chat') }),
  });
}
