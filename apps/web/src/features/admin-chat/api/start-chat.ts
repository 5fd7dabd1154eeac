import type { TAdminChatRoom } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatKeys } from '@web/components/chat/chat-api';
import { api } from '@web/lib/api-client';

export function startChat(userId: string): Promise<{ room: TAdminChatRoom }> {
  return api.post<{ room: TAdminChatRoom }>('/api/admin/chat/rooms', { userId });
}

/** 'Start New Chat' with a chosen customer: their newest conversation, or a new one. */
export function useStartChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startChat,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.rooms('/api/admin/chat') }),
  });
}
