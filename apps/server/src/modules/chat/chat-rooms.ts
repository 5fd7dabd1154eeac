import { CHAT_MSG, type TAdminChatRoom, type TChatRoom } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { chatRepository as repo } from './chat.repository';
import {
  type ChatContext,
  presentAdminRoom,
  presentRoom,
  roomFor,
  roomNotFound,
  UUID,
} from './chat-context';

/** A customer may keep this many conversations; more is almost certainly a mistake. */
const MAX_ROOMS_PER_CUSTOMER = 20;
/** 'New Chat' (or the automatic first room) of a customer. */
export async function createRoom(deps: ChatContext, userId: string): Promise<TChatRoom> {
  const id = await withTransaction(deps.pool, async (client) => {
    // One at a time per customer, so the cap holds under parallel clicks.
    await repo.lockUser(client, userId);
    if ((await repo.countRoomsOfUser(client, userId)) >= MAX_ROOMS_PER_CUSTOMER) {
      throw new AppError('CONFLICT', CHAT_MSG.tooManyRooms);
    }
    const room = await repo.insertRoom(client, { userId, adminId: null });
    await deps.realtime.publish(client, { type: 'chat.room', roomId: room.id, userId });
    return room.id;
  });
  return presentRoom(await roomFor(deps, { userId, role: 'user' }, id));
}

/** An admin starts a chat with a customer: their newest room, or a new one. */
export async function startForCustomer(
  deps: ChatContext,
  admin: { userId: string; ip: string },
  customerId: string,
): Promise<TAdminChatRoom> {
  if (!UUID.test(customerId) || !(await repo.isCustomer(deps.pool, customerId))) {
    throw new AppError('NOT_FOUND', 'Customer not found.');
  }
  const existing = (await repo.roomsOfUser(deps.pool, customerId, 'admin'))[0];
  const roomId =
    existing?.id ??
    (await withTransaction(deps.pool, async (client) => {
      const room = await repo.insertRoom(client, { userId: customerId, adminId: admin.userId });
      await deps.realtime.publish(client, {
        type: 'chat.room',
        roomId: room.id,
        userId: customerId,
      });
      await deps.audit.record(client, {
        actorId: admin.userId,
        action: 'chat.room.create',
        targetType: 'chat_room',
        targetId: room.id,
        targetUserId: customerId,
        after: { status: 'active' },
        ip: admin.ip,
      });
      return room.id;
    }));
  const room = await repo.adminRoom(deps.pool, roomId);
  if (!room) throw roomNotFound();
  return presentAdminRoom(room);
}

/**
 * the whole conversation goes, messages and room with one audit row in
 * one transaction (a failure leaves the rows in place). Its files are removed through
 * the outbox, queued in that transaction: after the commit, never on a rollback, and
 * still if the server stops between the two.
 */
export async function deleteRoom(
  deps: ChatContext,
  admin: { userId: string; ip: string },
  roomId: string,
): Promise<void> {
  if (!UUID.test(roomId)) throw roomNotFound();
  await withTransaction(deps.pool, async (client) => {
    const room = await repo.lockRoom(client, roomId);
    if (!room) throw roomNotFound();
    const messageCount = await repo.countMessages(client, room.id);
    await deps.outbox.deleteFiles(client, {
      prefixes: [`chat-images/${room.id}`, `chat-files/${room.id}`],
    });
    await repo.deleteMessages(client, room.id);
    await repo.deleteRoom(client, room.id);
    await deps.realtime.publish(client, {
      type: 'chat.room',
      roomId: room.id,
      userId: room.user_id,
    });
    await deps.audit.record(client, {
      actorId: admin.userId,
      action: 'chat.room.delete',
      targetType: 'chat_room',
      targetId: room.id,
      targetUserId: room.user_id,
      before: { messages: messageCount },
      ip: admin.ip,
    });
  });
  await deps.outbox.deliver();
}
