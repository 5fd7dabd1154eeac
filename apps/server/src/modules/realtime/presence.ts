import { createHash } from 'node:crypto';
import { CONNECT_TIMEOUT_MS } from '@server/db/client';
import pg from 'pg';
import type { Logger } from 'pino';
import { realtimeRepository as repo } from './realtime.repository';

/** The first key of every presence lock: "Cofr", so no other advisory lock collides with it. */
const PRESENCE_NAMESPACE = 0x436f6672;

/** A user id as the second key of an advisory lock: 31 bits of its hash (never negative). */
function userKey(userId: string): number {
  return createHash('sha256').update(userId).digest().readUInt32BE(0) & 0x7fffffff;
}

/**
 * Which users have an open realtime socket, on any server instance. Each instance holds one
 * shared PostgreSQL advisory lock per user with a socket open on it, on a connection of its
 * own; the question "is this user online?" is then one look at `pg_locks`. When an instance
 * dies, its connection closes and its locks go with it, so presence never outlives a server.
 * Two users whose ids hash alike (1 in 2^31) would share a lock: one could look online.
 */
export function createPresence(deps: { connectionString: string; pool: pg.Pool; log: Logger }) {
  const counts = new Map<string, number>();
  let client: pg.Client | null = null;
  let stopped = false;
  // Lock and unlock run one after another, in the order sockets came and went.
  let queue: Promise<void> = Promise.resolve();
  // While the database is away, connecting again is retried with backoff: once it is back,
  // the new connection takes the locks of everyone connected then.
  let retryAttempt = 0;
  let retryTimer: NodeJS.Timeout | null = null;

  function retryLater() {
    if (stopped || retryTimer) return;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(retryAttempt, 7));
    retryAttempt++;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      enqueue(async () => {});
    }, delay);
    retryTimer.unref();
  }

  async function connection(): Promise<pg.Client> {
    if (client) return client;
    const c = new pg.Client({
      connectionString: deps.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    c.on('error', (err) => deps.log.warn({ err: String(err) }, 'presence connection error'));
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      // Its locks went with it: take them again on a new connection.
      if (!stopped && counts.size > 0) enqueue(async () => {});
    });
    await c.connect();
    client = c;
    retryAttempt = 0;
    // A new connection holds nothing yet: take the locks of everyone connected now.
    for (const userId of counts.keys()) {
      await repo.lockShared(c, PRESENCE_NAMESPACE, userKey(userId));
    }
    return c;
  }

  function enqueue(step: (c: pg.Client) => Promise<unknown>) {
    queue = queue
      .then(async () => {
        if (stopped) return;
        const hadClient = client !== null;
        const c = await connection();
        // A fresh connection already holds exactly the locks of the users counted now.
        if (hadClient) await step(c);
      })
      .catch((err) => {
        deps.log.warn({ err: String(err) }, 'presence update failed');
        if (client === null && counts.size > 0) retryLater();
      });
  }

  return {
    /**
     * A socket of this user opened on this instance. Resolves once every instance can see
     * it (the lock is held), so a socket told it is ready is counted as online everywhere.
     */
    join(userId: string): Promise<void> {
      const n = (counts.get(userId) ?? 0) + 1;
      counts.set(userId, n);
      if (n === 1) {
        enqueue((c) => repo.lockShared(c, PRESENCE_NAMESPACE, userKey(userId)));
      }
      return queue;
    },

    /** A socket of this user closed on this instance. */
    leave(userId: string): void {
      const n = (counts.get(userId) ?? 0) - 1;
      if (n > 0) {
        counts.set(userId, n);
        return;
      }
      counts.delete(userId);
      enqueue((c) => repo.unlockShared(c, PRESENCE_NAMESPACE, userKey(userId)));
    },

    /** Whether the user has an open socket on any instance using this database. */
    async isOnline(userId: string): Promise<boolean> {
      // Let this instance's own pending lock changes land first.
      await queue;
      return repo.isLockedShared(deps.pool, PRESENCE_NAMESPACE, userKey(userId));
    },

    async stop(): Promise<void> {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      await queue;
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
