import { CHAT_MSG, type TAdminChatRoom, type TChatRoom, type TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type { StepUpSubject } from '../step-up';
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

/** Staff closing a conversation: who, from where, and the session whose step-up confirms it. */
export type StaffActor = {
  userId: string;
  ip: string;
  session: StepUpSubject;
  client: Client;
};

/**
 * Staff close a conversation; they never delete one (what a customer wrote is not staff's
 * to destroy). Nothing is removed: the customer still reads it, and a new message from
 * either side opens it again (send-message.ts). Only the retention job, after
 * `chat_retention_days`, removes a closed conversation's messages. A staff write, so the
 * admin's step-up confirms it, on the close's own transaction with its audit row.
 */
export async function closeRoom(
  deps: ChatContext,
  admin: StaffActor,
  roomId: string,
  stepUp: TStepUp,
): Promise<TAdminChatRoom> {
  if (!UUID.test(roomId)) throw roomNotFound();
  await withTransaction(deps.pool, async (client) => {
    const room = await repo.lockRoom(client, roomId);
    if (!room) throw roomNotFound();
    if (room.status === 'closed') throw new AppError('CONFLICT', CHAT_MSG.alreadyClosed);
    const messageCount = await repo.countMessages(client, room.id);
    await repo.closeRoom(client, room.id, admin.userId);
    await deps.stepUp.confirm(client, admin.session, stepUp, admin.client);
    await deps.realtime.publish(client, {
      type: 'chat.room',
      roomId: room.id,
      userId: room.user_id,
    });
    await deps.audit.record(client, {
      actorId: admin.userId,
      action: 'chat.room.close',
      targetType: 'chat_room',
      targetId: room.id,
      targetUserId: room.user_id,
      before: { status: room.status },
      after: { status: 'closed', messagesKept: messageCount },
      ip: admin.ip,
    });
  });
  const closed = await repo.adminRoom(deps.pool, roomId);
  if (!closed) throw roomNotFound();
  return presentAdminRoom(closed);
}
