import { useQuery } from '@tanstack/react-query';
import { adminRoomsQueryOptions, useLiveChat } from '@web/components/chat/chat-api';

/** Every support conversation, newest activity first, kept live over the realtime socket. */
export function useAdminRooms() {
  useLiveChat('/api/admin/chat');
  return useQuery(adminRoomsQueryOptions());
}
