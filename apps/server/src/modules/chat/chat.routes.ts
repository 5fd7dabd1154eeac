import {
  type TPermission,
  ZAdminChatRoomsResponse,
  ZChatFileParams,
  ZChatMessagesResponse,
  ZChatRoomParams,
  ZChatRoomResponse,
  ZChatRoomsResponse,
  ZCloseChatRoomRequest,
  ZOk,
  ZSendChatMessageRequest,
  ZStartChatRequest,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { sendPrivateFile } from '@server/lib/private-file-reply';
import { signedIn } from '@server/plugins/require-session';
import { readUpload, registerUploads } from '@server/plugins/uploads';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ChatActor, ChatService } from './chat.service';

const ZSentResponse = ZChatMessagesResponse;
const ZAdminRoomResponse = z.object({ room: ZAdminChatRoomsResponse.shape.rooms.element });

const customer = (request: FastifyRequest): ChatActor => ({
  userId: signedIn(request).userId,
  role: 'user',
});
const admin = (request: FastifyRequest): ChatActor => ({
  userId: signedIn(request).userId,
  role: 'admin',
  ip: request.ip,
});

/**
 * The routes one side of the chat shares with the other: messages, sending (JSON text, or
 * `multipart/form-data` with `text` and `files`), marking read, attachments.
 */
function conversationRoutes(
  base: string,
  actorOf: (request: FastifyRequest) => ChatActor,
  chat: ChatService,
  /** What staff need to read and to write here; the customer's side needs none. */
  permissions?: { read: TPermission; write: TPermission },
): FastifyPluginAsyncZod {
  const read = { permission: permissions?.read };
  const write = { permission: permissions?.write };
  return async (app) => {
    await registerUploads(app);

    app.get(
      `${base}/rooms/:roomId/messages`,
      {
        config: read,
        schema: {
          params: ZChatRoomParams,
          response: { 200: ZChatMessagesResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        messages: await chat.messages(actorOf(request), request.params.roomId),
      }),
    );

    app.post(
      `${base}/rooms/:roomId/messages`,
      {
        config: { ...write, multilineFields: ['text'] },
        schema: {
          params: ZChatRoomParams,
          body: ZSendChatMessageRequest,
          response: { 200: ZSentResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        messages: await chat.send(actorOf(request), request.params.roomId, {
          text: request.body.text,
        }),
      }),
    );

    app.post(
      `${base}/rooms/:roomId/attachments`,
      {
        config: { ...write, multilineFields: ['text'] },
        schema: { params: ZChatRoomParams, response: { 200: ZSentResponse, ...ERROR_RESPONSES } },
      },
      async (request) => {
        const actor = actorOf(request);
        const upload = await readUpload(request);
        return {
          messages: await chat.send(actor, request.params.roomId, {
            text: upload.fields.text,
            files: upload.files,
          }),
        };
      },
    );

    app.post(
      `${base}/rooms/:roomId/read`,
      {
        config: write,
        schema: { params: ZChatRoomParams, response: { 200: ZOk, ...ERROR_RESPONSES } },
      },
      async (request) => {
        await chat.markRead(actorOf(request), request.params.roomId);
        return { ok: true as const };
      },
    );

    app.get(
      `${base}/files/:messageId`,
      { config: read, schema: { params: ZChatFileParams, response: ERROR_RESPONSES } },
      async (request, reply) =>
        sendPrivateFile(reply, await chat.file(actorOf(request), request.params.messageId)),
    );
  };
}

/** Support chat, customer side: only the customer's own rooms. */
export function chatRoutes(chat: ChatService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/chat/rooms',
      { schema: { response: { 200: ZChatRoomsResponse, ...ERROR_RESPONSES } } },
      async (request) => ({ rooms: await chat.rooms(signedIn(request).userId) }),
    );

    app.post(
      '/api/chat/rooms',
      { schema: { response: { 200: ZChatRoomResponse, ...ERROR_RESPONSES } } },
      async (request) => ({ room: await chat.createRoom(signedIn(request).userId) }),
    );

    await app.register(conversationRoutes('/api/chat', customer, chat));
  };
}

/** Support chat, admin side; registered in the admin tree (`access: 'admin'`). */
export function adminChatRoutes(chat: ChatService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/chat/rooms',
      {
        config: { permission: 'chat.read' },
        schema: { response: { 200: ZAdminChatRoomsResponse, ...ERROR_RESPONSES } },
      },
      async () => ({ rooms: await chat.adminRooms() }),
    );

    app.post(
      '/api/admin/chat/rooms',
      {
        config: { permission: 'chat.write' },
        schema: {
          body: ZStartChatRequest,
          response: { 200: ZAdminRoomResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        room: await chat.startForCustomer(
          { userId: signedIn(request).userId, ip: request.ip },
          request.body.userId,
        ),
      }),
    );

    // Staff close a conversation, never delete one: its messages and files stay (a
    // DELETE here is a 404 like any unknown route).
    app.post(
      '/api/admin/chat/rooms/:roomId/close',
      {
        config: { permission: 'chat.write' },
        schema: {
          params: ZChatRoomParams,
          body: ZCloseChatRoomRequest,
          response: { 200: ZAdminRoomResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const session = signedIn(request);
        return {
          room: await chat.closeRoom(
            { userId: session.userId, ip: request.ip, session, client: clientOf(request) },
            request.params.roomId,
            request.body.stepUp,
          ),
        };
      },
    );

    await app.register(
      conversationRoutes('/api/admin/chat', admin, chat, {
        read: 'chat.read',
        write: 'chat.write',
      }),
    );
  };
}
