import { randomBytes } from 'node:crypto';
import {
  CHAT_MAX_TEXT,
  CHAT_MSG,
  type TAdminChatRoom,
  type TChatMessage,
  type TChatRoom,
} from '@coffer/shared';
import type pg from 'pg';
import type { Logger } from 'pino';
import { type TxClient, withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { IMAGE_TYPES, type SniffedType, sniff } from '../../lib/file-sniff';
import type { FileStore } from '../../lib/file-store';
import { type PrivateFile, withoutInvisibleCharacters } from '../../lib/private-file-reply';
import { InvalidImageError, stripImageMetadata } from '../../lib/strip-image-metadata';
import type { UploadedFile } from '../../plugins/uploads';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import { LIMITS, type RateLimiter } from '../rate-limit';
import type { RealtimeHub } from '../realtime';
import {
  type AdminRoomRow,
  type MessageRow,
  type RoomRow,
  chatRepository as repo,
  type SenderType,
} from './chat.repository';

/** Chat attachments: images, PDF, TXT and JSON; decided by content (product.md S5). */
const CHAT_FILE_TYPES: readonly SniffedType[] = [
  ...IMAGE_TYPES,
  'application/pdf',
  'text/plain',
  'application/json',
];

/** A customer may keep this many conversations; more is almost certainly a mistake. */
const MAX_ROOMS_PER_CUSTOMER = 20;

/** At most one "support replied" mail per room in this window. */
const REPLY_MAIL_WINDOW_SECONDS = 15 * 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who is acting: a customer on their own rooms, or an admin on any room. */
export type ChatActor = { userId: string; role: SenderType; ip?: string };

function roomNotFound(): AppError {
  return new AppError('NOT_FOUND', CHAT_MSG.roomNotFound);
}

export function presentRoom(r: RoomRow): TChatRoom {
  return {
    id: r.id,
    userId: r.user_id,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    lastMessageAt: r.last_message_at.toISOString(),
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

/** A file name reduced to safe key characters, keeping its extension readable. */
export function safeKeyName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').normalize('NFKD');
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-100);
  return cleaned === '' ? 'file' : cleaned;
}

type Checked = { name: string; type: SniffedType; bytes: Buffer };

/**
 * Every file is checked before any is stored: one bad file refuses the whole message.
 * Images lose their metadata (EXIF with GPS, XMP, comments) exactly as KYC documents do.
 * The checks run together: PDFs queue for the worker pool (lib/pdf-check.ts), not here.
 */
async function checkFiles(files: UploadedFile[]): Promise<Checked[]> {
  const checks = files
    .filter((f) => !(f.filename === '' && f.bytes.length === 0))
    .map(async (f): Promise<Checked> => {
      const name = withoutInvisibleCharacters(f.filename).trim() || 'file';
      if (f.tooLarge) {
        throw new AppError('VALIDATION_FAILED', `${name}: Please upload files smaller than 10MB.`);
      }
      const result = await sniff(f.bytes, CHAT_FILE_TYPES);
      if (!result.ok) {
        const code = result.reason === 'busy' ? 'RATE_LIMITED' : 'VALIDATION_FAILED';
        throw new AppError(
          code,
          `${name}: ${result.message}`,
          code === 'RATE_LIMITED' ? 30 : undefined,
        );
      }
      try {
        const bytes = stripImageMetadata(f.bytes, result.mime);
        return { name: [...name].slice(0, 200).join(''), type: result.mime, bytes };
      } catch (err) {
        if (err instanceof InvalidImageError) {
          throw new AppError('VALIDATION_FAILED', `${name}: ${err.message}`);
        }
        throw err;
      }
    });
  // Every check settles before the first refusal is reported, so no check is left
  // running for a request that has already been answered.
  const settled = await Promise.allSettled(checks);
  const refused = settled.find((s) => s.status === 'rejected');
  if (refused) throw refused.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<Checked>).value);
}

function checkText(raw: string | undefined): string {
  const text = (raw ?? '').trim();
  if (text.length > CHAT_MAX_TEXT) throw new AppError('VALIDATION_FAILED', CHAT_MSG.textTooLong);
  return text;
}

export function createChatService(deps: {
  pool: pg.Pool;
  files: FileStore;
  realtime: RealtimeHub;
  audit: AuditLog;
  limiter: RateLimiter;
  outbox: Outbox;
  log: Logger;
  publicUrl: string;
}) {
  /** The room if the actor may use it; a customer never learns that another's room exists. */
  async function roomFor(actor: ChatActor, roomId: string): Promise<RoomRow> {
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

  /**
   * "Support replied" to a customer with no socket open, at most once per room and window:
   * queued in the reply's transaction, so it goes out if and only if the reply commits.
   */
  async function mailIfAway(client: TxClient, room: { id: string; user_id: string }) {
    const limit = [
      { key: `chat-mail:room:${room.id}`, max: 1, windowSeconds: REPLY_MAIL_WINDOW_SECONDS },
    ];
    try {
      if (await deps.realtime.isOnline(room.user_id)) return;
      // Counted on its own connection: a reply rolled back after this only leaves the
      // room without a mail for the rest of the window.
      await deps.limiter.consume(limit);
    } catch (err) {
      // A customer already told in this window is not told again; a failed check sends none.
      if (!(err instanceof AppError)) {
        deps.log.warn({ err: String(err), roomId: room.id }, 'chat reply mail check failed');
      }
      return;
    }
    const to = await repo.emailOf(client, room.user_id);
    if (!to) return;
    const link = `${deps.publicUrl}/dashboard/chat`;
    await deps.outbox.mail(client, {
      to,
      subject: 'Coffer support replied to your message',
      text: [
        'Our support team has replied to your conversation.',
        '',
        `Read it and reply here: ${link}`,
        '',
        'For your security, the message itself is only shown after you sign in.',
      ].join('\n'),
    });
  }

  return {
    async rooms(userId: string): Promise<TChatRoom[]> {
      return (await repo.roomsOfUser(deps.pool, userId, 'user')).map(presentRoom);
    },

    async adminRooms(): Promise<TAdminChatRoom[]> {
      return (await repo.allRooms(deps.pool)).map(presentAdminRoom);
    },

    /** 'New Chat' (or the automatic first room) of a customer. */
    async createRoom(userId: string): Promise<TChatRoom> {
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
      return presentRoom(await roomFor({ userId, role: 'user' }, id));
    },

    /** An admin starts a chat with a customer: their newest room, or a new one. */
    async startForCustomer(
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
    },

    async messages(actor: ChatActor, roomId: string): Promise<TChatMessage[]> {
      const room = await roomFor(actor, roomId);
      return (await repo.messages(deps.pool, room.id)).map(presentMessage);
    },

    /**
     * A message: text, attachments or both (each attachment its own message, after the
     * text). Files are checked first, then stored, then the rows written in one transaction
     * with their events; if that fails the stored files are removed again.
     */
    async send(
      actor: ChatActor,
      roomId: string,
      input: { text?: string; files?: UploadedFile[] },
    ): Promise<TChatMessage[]> {
      const room = await roomFor(actor, roomId);
      if (actor.role === 'user') {
        // Counted before the files are even looked at; staff replies are audited instead.
        const sent = (input.files ?? []).filter(
          (f) => !(f.filename === '' && f.bytes.length === 0),
        );
        await deps.limiter.consume(LIMITS.upload(actor.userId), sent.length);
      }
      const text = checkText(input.text);
      const files = await checkFiles(input.files ?? []);
      if (text === '' && files.length === 0) {
        throw new AppError('VALIDATION_FAILED', CHAT_MSG.emptyMessage);
      }
      const stored: { key: string; name: string; type: string; size: number }[] = [];
      let rows: MessageRow[];
      try {
        for (const f of files) {
          const prefix = f.type.startsWith('image/') ? 'chat-images' : 'chat-files';
          const key = `${prefix}/${room.id}/${Date.now()}-${randomBytes(4).toString('hex')}-${safeKeyName(f.name)}`;
          await deps.files.put(key, f.bytes);
          stored.push({ key, name: f.name, type: f.type, size: f.bytes.length });
        }
        rows = await withTransaction(deps.pool, async (client) => {
          const locked = await repo.lockRoom(client, room.id);
          if (!locked) throw roomNotFound();
          const out: MessageRow[] = [];
          const parts = [
            ...(text ? [{ text, file: null }] : []),
            ...stored.map((file) => ({ text: '', file })),
          ];
          for (const part of parts) {
            const row = await repo.insertMessage(client, {
              roomId: room.id,
              senderId: actor.userId,
              senderType: actor.role,
              text: part.text,
              file: part.file,
            });
            out.push(row);
            await deps.realtime.publish(client, {
              type: 'chat.message',
              roomId: room.id,
              userId: room.user_id,
              messageId: row.id,
            });
          }
          await repo.touchRoom(client, room.id);
          if (actor.role === 'admin') {
            await mailIfAway(client, room);
            await deps.audit.record(client, {
              actorId: actor.userId,
              action: 'chat.message.send',
              targetType: 'chat_room',
              targetId: room.id,
              targetUserId: room.user_id,
              after: { messageIds: out.map((m) => m.id), files: stored.length },
              ip: actor.ip ?? null,
            });
          }
          return out;
        });
      } catch (err) {
        await Promise.all(stored.map((f) => deps.files.delete(f.key))).catch(() => {});
        throw err;
      }
      // Awaited, so the reply is answered only once the customer has been told (or not).
      await deps.outbox.deliver();
      return rows.map(presentMessage);
    },

    /** Opening a room: the other party's messages become read. */
    async markRead(actor: ChatActor, roomId: string): Promise<void> {
      const room = await roomFor(actor, roomId);
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
    },

    async file(actor: ChatActor, messageId: string): Promise<PrivateFile> {
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
      return {
        bytes,
        mime: row.file_type ?? 'application/octet-stream',
        name: row.file_name ?? 'file',
      };
    },

    /**
     * the whole conversation goes, messages and room with one audit row in
     * one transaction (a failure leaves the rows in place). Its files are removed through
     * the outbox, queued in that transaction: after the commit, never on a rollback, and
     * still if the server stops between the two.
     */
    async deleteRoom(admin: { userId: string; ip: string }, roomId: string): Promise<void> {
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
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
