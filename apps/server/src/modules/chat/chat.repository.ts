import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { chatMessages, chatRooms, userProfiles, users } from '@server/db/schema/index';
import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

export type SenderType = RowOf<typeof chatMessages>['sender_type'];

/** A room with the messages its reader has not opened counted. */
export type RoomRow = ColumnsOf<
  typeof chatRooms,
  'id' | 'user_id' | 'status' | 'created_at' | 'last_message_at' | 'closed_at'
> & { unread_count: number };

/** A room as staff list it: with its customer's e-mail and names. */
export type AdminRoomRow = RoomRow &
  ColumnsOf<typeof users, 'email'> &
  ColumnsOf<typeof userProfiles, 'full_name' | 'username'>;

export type MessageRow = ColumnsOf<
  typeof chatMessages,
  | 'id'
  | 'room_id'
  | 'sender_type'
  | 'message_text'
  | 'file_key'
  | 'file_name'
  | 'file_type'
  | 'file_size'
  | 'is_read'
  | 'created_at'
>;

type RoomKey = ColumnsOf<typeof chatRooms, 'id' | 'user_id' | 'status'>;

/** A closed room the retention job removes, with what it held (counted, never read). */
export type ExpiredRoom = ColumnsOf<typeof chatRooms, 'id' | 'user_id' | 'closed_at'> & {
  messages: number;
  files: number;
};

/** Unread = messages in the room from the other party that the reader has not opened. */
const ROOM_COLUMNS = `r.id, r.user_id, r.status, r.created_at, r.last_message_at, r.closed_at,
  (SELECT count(*) FROM chat_messages m
    WHERE m.room_id = r.id AND NOT m.is_read AND m.sender_type <> $1)::int AS unread_count`;

const MESSAGE_COLUMNS = `id, room_id, sender_type, message_text, file_key, file_name, file_type,
  file_size, is_read, created_at`;

/** The most rooms the admin list shows at once, newest activity first. */
export const ADMIN_ROOM_LIST_LIMIT = 500;

export const chatRepository = {
  /** Locks the customer's user row until the transaction ends: their room changes go one at a time. */
  async lockUser(client: pg.PoolClient, userId: string): Promise<void> {
    await client.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  },

  /** A customer's rooms, newest activity first, unread counted for `reader`. */
  async roomsOfUser(db: Db, userId: string, reader: SenderType): Promise<RoomRow[]> {
    const { rows } = await db.query<RoomRow>(
      `SELECT ${ROOM_COLUMNS} FROM chat_rooms r
        WHERE r.user_id = $2 ORDER BY r.last_message_at DESC, r.id`,
      [reader, userId],
    );
    return rows;
  },

  async countRoomsOfUser(db: Db, userId: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM chat_rooms WHERE user_id = $1',
      [userId],
    );
    return rows[0]?.n ?? 0;
  },

  /** Every room with its customer, for the admin, newest activity first. */
  async allRooms(db: Db): Promise<AdminRoomRow[]> {
    const { rows } = await db.query<AdminRoomRow>(
      `SELECT ${ROOM_COLUMNS}, u.email, p.full_name, p.username
         FROM chat_rooms r
         JOIN users u ON u.id = r.user_id
         LEFT JOIN user_profiles p ON p.id = r.user_id
        ORDER BY r.last_message_at DESC, r.id
        LIMIT ${ADMIN_ROOM_LIST_LIMIT}`,
      ['admin'],
    );
    return rows;
  },

  async adminRoom(db: Db, roomId: string): Promise<AdminRoomRow | null> {
    const { rows } = await db.query<AdminRoomRow>(
      `SELECT ${ROOM_COLUMNS}, u.email, p.full_name, p.username
         FROM chat_rooms r
         JOIN users u ON u.id = r.user_id
         LEFT JOIN user_profiles p ON p.id = r.user_id
        WHERE r.id = $2`,
      ['admin', roomId],
    );
    return rows[0] ?? null;
  },

  /** A room, read as `reader`; for a customer only their own (`userId`). */
  async room(
    db: Db,
    roomId: string,
    reader: SenderType,
    userId: string | null,
  ): Promise<RoomRow | null> {
    const { rows } = await db.query<RoomRow>(
      `SELECT ${ROOM_COLUMNS} FROM chat_rooms r
        WHERE r.id = $2 AND ($3::uuid IS NULL OR r.user_id = $3)`,
      [reader, roomId, userId],
    );
    return rows[0] ?? null;
  },

  /** The room locked for the rest of the transaction (messages, closing, retention). */
  async lockRoom(client: pg.PoolClient, roomId: string): Promise<RoomKey | null> {
    const { rows } = await client.query<RoomKey>(
      'SELECT id, user_id, status FROM chat_rooms WHERE id = $1 FOR UPDATE',
      [roomId],
    );
    return rows[0] ?? null;
  },

  /** Staff close the room: nothing in it is removed. */
  async closeRoom(client: pg.PoolClient, roomId: string, adminId: string): Promise<void> {
    await client.query(
      `UPDATE chat_rooms SET status = 'closed', closed_at = now(), closed_by = $2 WHERE id = $1`,
      [roomId, adminId],
    );
  },

  /**
   * Closed rooms whose closing is more than `days` days old, oldest first, locked (rooms a
   * message is being written to right now are left for the next run), with their message
   * and attachment counts.
   */
  async lockExpiredClosedRooms(
    client: pg.PoolClient,
    days: number,
    limit: number,
  ): Promise<ExpiredRoom[]> {
    const { rows } = await client.query<ExpiredRoom>(
      `SELECT r.id, r.user_id, r.closed_at,
              (SELECT count(*) FROM chat_messages m WHERE m.room_id = r.id)::int AS messages,
              (SELECT count(*) FROM chat_messages m
                WHERE m.room_id = r.id AND m.file_key IS NOT NULL)::int AS files
         FROM chat_rooms r
        WHERE r.status = 'closed' AND r.closed_at < now() - make_interval(days => $1)
        ORDER BY r.closed_at, r.id
        LIMIT $2
          FOR UPDATE OF r SKIP LOCKED`,
      [days, limit],
    );
    return rows;
  },

  /** Removes rooms with their messages (the files go through the outbox). */
  async deleteRooms(client: pg.PoolClient, roomIds: string[]): Promise<void> {
    await client.query('DELETE FROM chat_messages WHERE room_id = ANY($1::uuid[])', [roomIds]);
    await client.query('DELETE FROM chat_rooms WHERE id = ANY($1::uuid[])', [roomIds]);
  },

  async insertRoom(
    client: Db,
    input: { userId: string; adminId: string | null },
  ): Promise<ColumnsOf<typeof chatRooms, 'id'>> {
    const { rows } = await client.query<ColumnsOf<typeof chatRooms, 'id'>>(
      `INSERT INTO chat_rooms (user_id, admin_id, status) VALUES ($1, $2, 'active') RETURNING id`,
      [input.userId, input.adminId],
    );
    const row = rows[0];
    if (!row) throw new Error('chat room insert returned nothing');
    return row;
  },

  async isCustomer(db: Db, userId: string): Promise<boolean> {
    const { rows } = await db.query(
      `SELECT 1 FROM users u WHERE u.id = $1
          AND NOT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = u.id)`,
      [userId],
    );
    return rows.length > 0;
  },

  async messages(db: Db, roomId: string): Promise<MessageRow[]> {
    const { rows } = await db.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_messages WHERE room_id = $1 ORDER BY created_at, id`,
      [roomId],
    );
    return rows;
  },

  /** The time is the clock's, not the transaction's: a text and its files keep their order. */
  async insertMessage(
    client: pg.PoolClient,
    input: {
      roomId: string;
      senderId: string;
      senderType: SenderType;
      text: string;
      file: { key: string; name: string; type: string; size: number } | null;
    },
  ): Promise<MessageRow> {
    const { rows } = await client.query<MessageRow>(
      `INSERT INTO chat_messages
         (room_id, sender_id, sender_type, message_text, file_key, file_name, file_type, file_size,
          created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp())
       RETURNING ${MESSAGE_COLUMNS}`,
      [
        input.roomId,
        input.senderId,
        input.senderType,
        input.text,
        input.file?.key ?? null,
        input.file?.name ?? null,
        input.file?.type ?? null,
        input.file?.size ?? null,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('chat message insert returned nothing');
    return row;
  },

  /** A new message: the room's last activity, and a closed room is open again. */
  async touchRoom(client: pg.PoolClient, roomId: string): Promise<void> {
    await client.query(
      `UPDATE chat_rooms SET last_message_at = now(), status = 'active', closed_at = NULL,
              closed_by = NULL
        WHERE id = $1`,
      [roomId],
    );
  },

  /** Marks the other party's messages read; the number changed. */
  async markRead(client: Db, roomId: string, reader: SenderType): Promise<number> {
    const res = await client.query(
      `UPDATE chat_messages SET is_read = true
        WHERE room_id = $1 AND sender_type <> $2 AND NOT is_read`,
      [roomId, reader],
    );
    return res.rowCount ?? 0;
  },

  /** A message with an attachment; for a customer only in their own room. */
  async fileMessage(
    db: Db,
    messageId: string,
    userId: string | null,
  ): Promise<(MessageRow & Pick<RoomKey, 'user_id'>) | null> {
    const { rows } = await db.query<MessageRow & Pick<RoomKey, 'user_id'>>(
      `SELECT m.id, m.room_id, m.sender_type, m.message_text, m.file_key, m.file_name,
              m.file_type, m.file_size, m.is_read, m.created_at, r.user_id
         FROM chat_messages m JOIN chat_rooms r ON r.id = m.room_id
        WHERE m.id = $1 AND m.file_key IS NOT NULL AND ($2::uuid IS NULL OR r.user_id = $2)`,
      [messageId, userId],
    );
    return rows[0] ?? null;
  },

  async countMessages(client: pg.PoolClient, roomId: string): Promise<number> {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1',
      [roomId],
    );
    return rows[0]?.n ?? 0;
  },

  async emailOf(db: Db, userId: string): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof users, 'email'>>(
      'SELECT email FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.email ?? null;
  },
};
