import type {
  TAdminChatRoomsResponse,
  TChatMessage,
  TChatMessagesResponse,
  TChatRoomsResponse,
} from '@coffer/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { useRealtime } from '@web/lib/realtime';
import { postForm } from '@web/lib/upload-client';
import { useCallback } from 'react';

/**
 * The support chat's API, for either side: the customer's (`/api/chat`) or the admin's
 * (`/api/admin/chat`). The two features share the conversation UI and these calls.
 */
export type ChatBase = '/api/chat' | '/api/admin/chat';

export const chatKeys = {
  all: (base: ChatBase) => ['chat', base] as const,
  rooms: (base: ChatBase) => ['chat', base, 'rooms'] as const,
  messages: (base: ChatBase, roomId: string) => ['chat', base, 'messages', roomId] as const,
  /** A message's attachment, fetched as a Blob (never a public link). */
  file: (base: ChatBase, messageId: string) => ['chat-file', base, messageId] as const,
};

export const customerRoomsQueryOptions = () =>
  queryOptions({
    queryKey: chatKeys.rooms('/api/chat'),
    queryFn: ({ signal }) => api.get<TChatRoomsResponse>('/api/chat/rooms', signal),
    staleTime: 30_000,
  });

export const adminRoomsQueryOptions = () =>
  queryOptions({
    queryKey: chatKeys.rooms('/api/admin/chat'),
    queryFn: ({ signal }) => api.get<TAdminChatRoomsResponse>('/api/admin/chat/rooms', signal),
    staleTime: 30_000,
  });

export function useMessages(base: ChatBase, roomId: string) {
  return useQuery({
    queryKey: chatKeys.messages(base, roomId),
    queryFn: ({ signal }) =>
      api.get<TChatMessagesResponse>(`${base}/rooms/${roomId}/messages`, signal),
    staleTime: 30_000,
  });
}

/** Sends text (JSON) or text with files (multipart); answers the saved messages. */
export async function sendMessage(
  base: ChatBase,
  roomId: string,
  text: string,
  files: File[],
): Promise<TChatMessage[]> {
  if (files.length === 0) {
    return (await api.post<TChatMessagesResponse>(`${base}/rooms/${roomId}/messages`, { text }))
      .messages;
  }
  const form = new FormData();
  form.append('text', text);
  for (const f of files) form.append('files', f, f.name);
  return (await postForm<TChatMessagesResponse>(`${base}/rooms/${roomId}/attachments`, form))
    .messages;
}

export function markRead(base: ChatBase, roomId: string) {
  return api.post(`${base}/rooms/${roomId}/read`, {});
}

export const fileUrl = (base: ChatBase, messageId: string) => `${base}/files/${messageId}`;

/** Adds messages to a list, keeping each id once, in time order (live events can repeat). */
export function mergeMessages(list: TChatMessage[], more: TChatMessage[]): TChatMessage[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
}

/**
 * Keeps the chat lists live: any chat event (or a reconnect) refetches the room list, and
 * the messages of the room it names.
 */
export function useLiveChat(base: ChatBase) {
  const queryClient = useQueryClient();
  const onNotice = useCallback(
    (n: Parameters<Parameters<typeof useRealtime>[1]>[0]) => {
      if (n.type === 'resync') {
        void queryClient.invalidateQueries({ queryKey: chatKeys.all(base) });
        return;
      }
      if (n.type === 'chat.message' || n.type === 'chat.read' || n.type === 'chat.room') {
        void queryClient.invalidateQueries({ queryKey: chatKeys.rooms(base) });
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(base, n.roomId) });
      }
    },
    [queryClient, base],
  );
  useRealtime(['chat.message', 'chat.read', 'chat.room'], onNotice);
}
