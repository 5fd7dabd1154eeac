import { z } from 'zod';
import { ZStepUp } from './step-up';

/** what an attachment may be, checked again by content. */
export const CHAT_ATTACHMENT_ACCEPT =
  'image/jpeg,image/png,image/gif,image/webp,application/pdf,text/plain,application/json,.pdf,.txt,.json';
export const CHAT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const CHAT_MAX_FILES = 10;
export const CHAT_MAX_TEXT = 5000;

export const CHAT_MSG = {
  emptyMessage: 'Please type a message or attach a file.',
  textTooLong: `Messages can be at most ${CHAT_MAX_TEXT} characters.`,
  roomNotFound: 'Conversation not found.',
  fileNotFound: 'File not found.',
  tooManyRooms: 'You have too many conversations open. Please continue an existing one.',
  alreadyClosed: 'This conversation is already closed.',
  closeConfirm:
    'Close this conversation? Its messages and files are kept; the customer can still read it, and their next message opens it again.',
  closed: 'Conversation closed. Its messages are kept.',
  closeFailed: 'Failed to close the conversation. Please try again.',
  /** Above the composer of a closed conversation, on each side. */
  closedNoticeCustomer:
    'Support closed this conversation. You can still read it; send a message to open it again.',
  closedNoticeAdmin: 'This conversation is closed. Sending a message opens it again.',
} as const;

/**
 * chat_rooms, as its customer sees it. `status` 'active' shows 'Online', 'closed' shows
 * 'Closed': staff closed it (never deleted), its history stays readable, and a new message
 * from either side opens it again.
 */
export const ZChatRoom = z.object({
  id: z.string(),
  userId: z.string(),
  status: z.string(),
  /** When staff closed it; null while it is open. */
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  lastMessageAt: z.string(),
  /** Messages from the other party not read yet. */
  unreadCount: z.number().int(),
});
export type TChatRoom = z.infer<typeof ZChatRoom>;

/** chat_rooms: with the customer's name and e-mail. */
export const ZAdminChatRoom = ZChatRoom.extend({
  customer: z.object({
    email: z.string(),
    fullName: z.string().nullable(),
    username: z.string().nullable(),
  }),
});
export type TAdminChatRoom = z.infer<typeof ZAdminChatRoom>;

/** An attachment's description; its bytes come only from the authenticated file route. */
export const ZChatFile = z.object({ name: z.string(), type: z.string(), size: z.number().int() });
export type TChatFile = z.infer<typeof ZChatFile>;

export const ZChatMessage = z.object({
  id: z.string(),
  roomId: z.string(),
  senderType: z.enum(['admin', 'user']),
  messageText: z.string(),
  file: ZChatFile.nullable(),
  isRead: z.boolean(),
  createdAt: z.string(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ZChatRoomsResponse = z.object({ rooms: z.array(ZChatRoom) });
export const ZAdminChatRoomsResponse = z.object({ rooms: z.array(ZAdminChatRoom) });
export const ZChatRoomResponse = z.object({ room: ZChatRoom });
export const ZChatMessagesResponse = z.object({ messages: z.array(ZChatMessage) });
export type TChatRoomsResponse = z.infer<typeof ZChatRoomsResponse>;
export type TAdminChatRoomsResponse = z.infer<typeof ZAdminChatRoomsResponse>;
export type TChatRoomResponse = z.infer<typeof ZChatRoomResponse>;
export type TChatMessagesResponse = z.infer<typeof ZChatMessagesResponse>;

/** Ids in an address: anything but a uuid names no room or file, and never reaches a query. */
export const ZChatRoomParams = z.object({ roomId: z.uuid({ error: CHAT_MSG.roomNotFound }) });
export const ZChatFileParams = z.object({ messageId: z.uuid({ error: CHAT_MSG.fileNotFound }) });

/** A text message; attachments go as `multipart/form-data` (`text` and `files`). */
export const ZSendChatMessageRequest = z.object({ text: z.string().max(CHAT_MAX_TEXT * 2) });
export type TSendChatMessageRequest = z.infer<typeof ZSendChatMessageRequest>;

export const ZStartChatRequest = z.object({ userId: z.string() });
export type TStartChatRequest = z.infer<typeof ZStartChatRequest>;

/** POST /api/admin/chat/rooms/:roomId/close: a staff write, confirmed with a step-up. */
export const ZCloseChatRoomRequest = z.object({ stepUp: ZStepUp });
export type TCloseChatRoomRequest = z.infer<typeof ZCloseChatRoomRequest>;
