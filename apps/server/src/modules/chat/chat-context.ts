import { CHAT_MSG, type TAdminChatRoom, type TChatMessage, type TChatRoom } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { FileStore } from '@server/lib/file-store';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import type { RateLimiter } from '../rate-limit';
import type { RealtimeHub } from '../realtime';
import type { StepUp } from '../step-up';
import {
  type AdminRoomRow,
  type MessageRow,
  type RoomRow,
  chatRepository as repo,
  type SenderType,
} from './chat.repository';

/**
 * What the parts of the chat service share: its dependencies, given once to
 * `createChatService`. The step-up confirms staff closing a conversation; `setting` reads
 * `chat_retention_days` for the retention job.
 */
export type ChatContext = {
  pool: pg.Pool;
  files: FileStore;
  realtime: RealtimeHub;
  audit: AuditLog;
  limiter: RateLimiter;
  outbox: Outbox;
  stepUp: StepUp;
  setting: (key: string) => Promise<string | null>;
  log: Logger;
  publicUrl: string;
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who is acting: a customer on their own rooms, or an admin on any room. */
export type ChatActor = { userId: string; role: SenderType; ip?: string };

export function roomNotFound(): AppError {
  return new AppError('NOT_FOUND', CHAT_MSG.roomNotFound);
}

export function presentRoom(r: RoomRow): TChatRoom {
  return {
    id: r.id,
    userId: r.user_id,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    lastMessageAt: r.last_message_at.toISOString(),
    closedAt: r.closed_at?.toISOString() ?? null,
    unreadCount: r.unread_count,
  };
}

export function presentAdminRoom(r: AdminRoomRow): TAdminChatRoom {
  return {
    ...presentRoom(r),
    customer: { email: r.email, fullName: r.full_name, username: r.username },
  };
}

export function presentMessage(m: MessageRow): TChatMessage {
  return {
    id: m.id,
    roomId: m.room_id,
    senderType: m.sender_type,
    messageText: m.message_text,
    file:
      m.file_key && m.file_name && m.file_type
        ? { name: m.file_name, type: m.file_type, size: m.file_size ?? 0 }
        : null,
    isRead: m.is_read,
    createdAt: m.created_at.toISOString(),
  };
}

/** The room if the actor may use it; a customer never learns that another's room exists. */
export async function roomFor(
  deps: ChatContext,
  actor: ChatActor,
  roomId: string,
): Promise<RoomRow> {
  if (!UUID.test(roomId)) throw roomNotFound();
  const room = await repo.room(
    deps.pool,
    roomId,
    actor.role,
    actor.role === 'admin' ? null : actor.userId,
  );
  if (!room) throw roomNotFound();
  return room;
}
