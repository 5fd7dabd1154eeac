import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * chat_rooms: one customer's conversation with support. Staff close a conversation, never
 * delete it: `status` 'closed' with who and when; the customer's next message opens it
 * again. Only the retention job (`chat_retention_days`) removes a closed one's messages.
 */
export const chatRooms = pgTable(
  'chat_rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The admin who opened it, when an admin did. */
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('active'),
    /** When staff closed it, null while it is open: the retention period counts from here. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_rooms_user_idx').on(t.userId, t.lastMessageAt.desc()),
    index('chat_rooms_last_message_idx').on(t.lastMessageAt.desc()),
    index('chat_rooms_closed_idx').on(t.closedAt).where(sql`${t.closedAt} IS NOT NULL`),
    check('chat_rooms_closed', sql`(${t.status} = 'closed') = (${t.closedAt} IS NOT NULL)`),
  ],
);

/**
 * chat_messages. An attachment is a private stored file (product.md S5):
 * `file_key` is its storage key under the `chat-images/` or `chat-files/` prefix, never a
 * public URL; it is served only through the authenticated file endpoint.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    senderType: text('sender_type', { enum: ['admin', 'user'] }).notNull(),
    messageText: text('message_text').notNull().default(''),
    fileKey: text('file_key'),
    fileName: text('file_name'),
    fileType: text('file_type'),
    fileSize: integer('file_size'),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_room_idx').on(t.roomId, t.createdAt, t.id),
    index('chat_messages_unread_idx').on(t.roomId, t.senderType).where(sql`NOT ${t.isRead}`),
    check('chat_messages_sender_type', sql`${t.senderType} IN ('admin', 'user')`),
  ],
);
