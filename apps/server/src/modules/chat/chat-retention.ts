import { withTransaction } from '@server/db/tx';
import { chatRepository as repo } from './chat.repository';
import type { ChatContext } from './chat-context';

/** The setting that keeps closed conversations this many days; 0 (the default) keeps them. */
export const CHAT_RETENTION_SETTING = 'chat_retention_days';

/** Rooms removed per transaction: a long backlog goes in several short ones. */
const ROOMS_PER_RUN = 200;

export type RetentionRun = { rooms: number; messages: number; files: number };

/**
 * The retention job (hourly, on the instance holding the clean-up lock): removes the
 * conversations staff closed more than `chat_retention_days` days ago, with their messages
 * and attachments. Open conversations are never touched, however old; a conversation the
 * customer wrote to again is open. Each batch writes one audit row naming what went, the
 * rooms and their customers and the counts, never a word of what was written; the files
 * are removed through the outbox after the commit.
 */
export async function applyRetention(ctx: ChatContext): Promise<RetentionRun> {
  const days = retentionDays(await ctx.setting(CHAT_RETENTION_SETTING));
  const total: RetentionRun = { rooms: 0, messages: 0, files: 0 };
  if (days === 0) return total;
  for (;;) {
    const removed = await withTransaction(ctx.pool, async (client) => {
      const rooms = await repo.lockExpiredClosedRooms(client, days, ROOMS_PER_RUN);
      if (rooms.length === 0) return rooms;
      const ids = rooms.map((r) => r.id);
      await ctx.outbox.deleteFiles(client, {
        prefixes: ids.flatMap((id) => [`chat-images/${id}`, `chat-files/${id}`]),
      });
      await repo.deleteRooms(client, ids);
      for (const r of rooms) {
        await ctx.realtime.publish(client, { type: 'chat.room', roomId: r.id, userId: r.user_id });
      }
      await ctx.audit.record(client, {
        actorId: null,
        action: 'chat.retention.remove',
        targetType: 'app_setting',
        targetId: CHAT_RETENTION_SETTING,
        before: {
          rooms: rooms.map((r) => ({
            roomId: r.id,
            customerId: r.user_id,
            closedAt: r.closed_at?.toISOString() ?? null,
            messages: r.messages,
            files: r.files,
          })),
        },
        after: {
          retentionDays: days,
          rooms: rooms.length,
          messages: rooms.reduce((n, r) => n + r.messages, 0),
          files: rooms.reduce((n, r) => n + r.files, 0),
        },
      });
      return rooms;
    });
    if (removed.length === 0) break;
    total.rooms += removed.length;
    total.messages += removed.reduce((n, r) => n + r.messages, 0);
    total.files += removed.reduce((n, r) => n + r.files, 0);
    if (removed.length < ROOMS_PER_RUN) break;
  }
  if (total.rooms > 0) await ctx.outbox.deliver();
  return total;
}

/** The setting as a whole number of days; anything unreadable keeps everything. */
function retentionDays(value: string | null): number {
  const n = Number(value ?? '0');
  return Number.isInteger(n) && n > 0 ? n : 0;
}
