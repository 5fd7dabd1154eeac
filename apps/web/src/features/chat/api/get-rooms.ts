import { useQuery } from '@tanstack/react-query';
import { customerRoomsQueryOptions, useLiveChat } from '@web/components/chat/chat-api';

/** The customer's conversations, newest activity first, kept live over the realtime socket. */
export function useRooms() {
  useLiveChat('/api/chat');
  return useQuery(customerRoomsQueryOptions());
}
