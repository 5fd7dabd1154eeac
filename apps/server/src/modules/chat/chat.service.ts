import type { TAdminChatRoom, TChatMessage, TChatRoom, TStepUp } from '@coffer/shared';
import type { PrivateFile } from '@server/lib/private-file-reply';
import type { UploadedFile } from '@server/plugins/uploads';
import type { ChatActor, ChatContext } from './chat-context';
import { applyRetention, type RetentionRun } from './chat-retention';
import { closeRoom, createRoom, type StaffActor, startForCustomer } from './chat-rooms';
import { adminRooms, fileOf, markRead, messagesOf, roomsOf } from './read-chat';
import { sendMessage } from './send-message';

/**
 * Support chat composed: each use case is its own file taking the shared context
 * (`chat-context.ts`).
 */

export {
  type ChatActor,
  presentAdminRoom,
  presentMessage,
  presentRoom,
} from './chat-context';
export { safeKeyName } from './chat-files';
export { CHAT_RETENTION_SETTING } from './chat-retention';
export type { StaffActor } from './chat-rooms';

export function createChatService(deps: ChatContext) {
  return {
    rooms: (userId: string): Promise<TChatRoom[]> => roomsOf(deps, userId),

    adminRooms: (): Promise<TAdminChatRoom[]> => adminRooms(deps),

    /** 'New Chat' (or the automatic first room) of a customer. */
    createRoom: (userId: string): Promise<TChatRoom> => createRoom(deps, userId),

    /** An admin starts a chat with a customer: their newest room, or a new one. */
    startForCustomer: (
      admin: { userId: string; ip: string },
      customerId: string,
    ): Promise<TAdminChatRoom> => startForCustomer(deps, admin, customerId),

    messages: (actor: ChatActor, roomId: string): Promise<TChatMessage[]> =>
      messagesOf(deps, actor, roomId),

    send: (
      actor: ChatActor,
      roomId: string,
      input: { text?: string; files?: UploadedFile[] },
    ): Promise<TChatMessage[]> => sendMessage(deps, actor, roomId, input),

    /** Opening a room: the other party's messages become read. */
    markRead: (actor: ChatActor, roomId: string): Promise<void> => markRead(deps, actor, roomId),

    file: (actor: ChatActor, messageId: string): Promise<PrivateFile> =>
      fileOf(deps, actor, messageId),

    /** Staff close a conversation (never delete it), with their step-up. */
    closeRoom: (admin: StaffActor, roomId: string, stepUp: TStepUp): Promise<TAdminChatRoom> =>
      closeRoom(deps, admin, roomId, stepUp),

    /** The retention job: closed conversations older than `chat_retention_days` go. */
    applyRetention: (): Promise<RetentionRun> => applyRetention(deps),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
