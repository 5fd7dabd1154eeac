import { type TRealtimeEvent, type TRealtimeServerMessage, ZRealtimeEvent } from '@coffer/shared';
import { type Queryable, realtimeRepository as repo } from './realtime.repository';
import { type RealtimeContext, send } from './realtime-context';

/** The one PostgreSQL channel every realtime event travels on. */
export const REALTIME_CHANNEL = 'coffer_events';
/** Under PostgreSQL's NOTIFY payload limit (8,000 bytes), with room to spare. */
const NOTIFY_PAYLOAD_BYTES = 7_000;

/**
 * Announces an event to every instance. On a transaction's client it is sent only if
 * that transaction commits.
 */
export async function publish(client: Queryable, event: TRealtimeEvent): Promise<void> {
  const payload = JSON.stringify(ZRealtimeEvent.parse(event));
  await repo.notify(client, REALTIME_CHANNEL, payload);
}

/**
 * Announces many events with few NOTIFYs (a chain block moves every confirming deposit's
 * count at once): packed as arrays under PostgreSQL's 8,000-byte payload limit.
 */
export async function publishMany(
  client: Queryable,
  events: readonly TRealtimeEvent[],
): Promise<void> {
  const payloads: string[] = [];
  let batch: string[] = [];
  let size = 2;
  for (const event of events) {
    const one = JSON.stringify(ZRealtimeEvent.parse(event));
    if (batch.length > 0 && size + one.length + 1 > NOTIFY_PAYLOAD_BYTES) {
      payloads.push(`[${batch.join(',')}]`);
      batch = [];
      size = 2;
    }
    batch.push(one);
    size += one.length + 1;
  }
  if (batch.length > 0) payloads.push(`[${batch.join(',')}]`);
  if (payloads.length === 0) return;
  await repo.notifyEach(client, REALTIME_CHANNEL, payloads);
}

/** A NOTIFY carries one event (publish), or an array of them (publishMany). */
export function deliver(ctx: RealtimeContext, payload: string): void {
  let events: TRealtimeEvent[];
  try {
    const parsed: unknown = JSON.parse(payload);
    events = (Array.isArray(parsed) ? parsed : [parsed]).map((e) => ZRealtimeEvent.parse(e));
  } catch {
    ctx.deps.log.warn('ignored a malformed realtime event');
    return;
  }
  for (const event of events) deliverOne(ctx, event);
}

/**
 * An event to the customer's subscribed sockets and every subscribed admin's; one that
 * names no customer to every subscribed socket.
 */
function deliverOne(ctx: RealtimeContext, event: TRealtimeEvent) {
  const message = JSON.stringify({ type: 'event', event } satisfies TRealtimeServerMessage);
  if (!('userId' in event)) {
    for (const conn of ctx.all) if (conn.subscribed) send(conn, message);
    return;
  }
  for (const conn of ctx.byUser.get(event.userId) ?? []) if (conn.subscribed) send(conn, message);
  for (const conn of ctx.admins) if (conn.subscribed) send(conn, message);
}
