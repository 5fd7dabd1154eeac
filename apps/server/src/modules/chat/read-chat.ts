import { CHAT_MSG, type TAdminChatRoom, type TChatMessage, type TChatRoom } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { PrivateFile } from '@server/lib/private-file-reply';
import { chatRepository as repo } from './chat.repository';
import {
  type ChatActor,
  type ChatContext,
  presentAdminRoom,
  presentMessage,
  presentRoom,
  roomFor,
  UUID,
} from './chat-context';

export async function roomsOf(deps: ChatContext, userId: string): Promise<TChatRoom[]> {
  return (await repo.roomsOfUser(deps.pool, userId, 'user')).map(presentRoom);
}

export async function adminRooms(deps: ChatContext): Promise<TAdminChatRoom[]> {
  return (await repo.allRooms(deps.pool)).map(presentAdminRoom);
}

/**
 * A conversation's messages. Staff reading one is written to the audit log (which room,
 * whose, how many messages: never what they say), committed before a message is answered:
 * one row per request.
 */
export async function messagesOf(
  deps: ChatContext,
  actor: ChatActor,
  roomId: string,
): Promise<TChatMessage[]> {
  const room = await roomFor(deps, actor, roomId);
  const messages = await repo.messages(deps.pool, room.id);
  if (actor.role === 'admin') {
    await deps.audit.recordAlone(deps.pool, {
      actorId: actor.userId,
      action: 'chat.messages.view',
      targetType: 'chat_room',
      targetId: room.id,
      targetUserId: room.user_id,
      after: { messages: messages.length },
      ip: actor.ip ?? null,
    });
  }
  return messages.map(presentMessage);
}

/** Opening a room: the other party's messages become read. */
export async function markRead(deps: ChatContext, actor: ChatActor, roomId: string): Promise<void> {
  const room = await roomFor(deps, actor, roomId);
  await withTransaction(deps.pool, async (client) => {
    const changed = await repo.markRead(client, room.id, actor.role);
    if (changed > 0) {
      await deps.realtime.publish(client, {
        type: 'chat.read',
        roomId: room.id,
        userId: room.user_id,
      });
    }
  });
}

export async function fileOf(
  deps: ChatContext,
  actor: ChatActor,
  messageId: string,
): Promise<PrivateFile> {
  const notFound = new AppError('NOT_FOUND', CHAT_MSG.fileNotFound);
  if (!UUID.test(messageId)) throw notFound;
  const row = await repo.fileMessage(
    deps.pool,
    messageId,
    actor.role === 'admin' ? null : actor.userId,
  );
  if (!row?.file_key) throw notFound;
  const bytes = await deps.files.get(row.file_key);
  if (!bytes) throw notFound;
  // Staff downloading an attachment: audited (the message and its room, never the file's
  // name or bytes) and committed before a byte is sent, as a KYC document is.
  if (actor.role === 'admin') {
    await deps.audit.recordAlone(deps.pool, {
      actorId: actor.userId,
      action: 'chat.file.view',
      targetType: 'chat_message',
      targetId: row.id,
      targetUserId: row.user_id,
      after: { roomId: row.room_id, type: row.file_type, size: row.file_size },
      ip: actor.ip ?? null,
    });
  }
  return {
    bytes,
    mime: row.file_type ?? 'application/octet-stream',
    name: row.file_name ?? 'file',
  };
}
