import { randomBytes } from 'node:crypto';
import { CHAT_MSG, type TChatMessage } from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { UploadedFile } from '@server/plugins/uploads';
import { LIMITS } from '../rate-limit';
import { type MessageRow, chatRepository as repo } from './chat.repository';
import {
  type ChatActor,
  type ChatContext,
  presentMessage,
  roomFor,
  roomNotFound,
} from './chat-context';
import { checkFiles, checkText, safeKeyName } from './chat-files';

/** At most one "support replied" mail per room in this window. */
const REPLY_MAIL_WINDOW_SECONDS = 15 * 60;

/**
 * "Support replied" to a customer with no socket open, at most once per room and window:
 * queued in the reply's transaction, so it goes out if and only if the reply commits.
 */
async function mailIfAway(
  deps: ChatContext,
  client: TxClient,
  room: { id: string; user_id: string },
) {
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

/**
 * A message: text, attachments or both (each attachment its own message, after the
 * text). Files are checked first, then stored, then the rows written in one transaction
 * with their events; if that fails the stored files are removed again.
 */
export async function sendMessage(
  deps: ChatContext,
  actor: ChatActor,
  roomId: string,
  input: { text?: string; files?: UploadedFile[] },
): Promise<TChatMessage[]> {
  const room = await roomFor(deps, actor, roomId);
  if (actor.role === 'user') {
    // Counted before the files are even looked at; staff replies are audited instead.
    const sent = (input.files ?? []).filter((f) => !(f.filename === '' && f.bytes.length === 0));
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
      // A closed conversation opens again with its next message, from either side
      // (touchRoom below); the staff reply's audit row says it was closed.
      const reopened = locked.status === 'closed';
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
      if (reopened) {
        await deps.realtime.publish(client, {
          type: 'chat.room',
          roomId: room.id,
          userId: room.user_id,
        });
      }
      if (actor.role === 'admin') {
        await mailIfAway(deps, client, room);
        await deps.audit.record(client, {
          actorId: actor.userId,
          action: 'chat.message.send',
          targetType: 'chat_room',
          targetId: room.id,
          targetUserId: room.user_id,
          after: {
            messageIds: out.map((m) => m.id),
            files: stored.length,
            ...(reopened ? { reopened: true } : {}),
          },
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
}
