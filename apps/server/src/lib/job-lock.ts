import pg from 'pg';
import type { Logger } from 'pino';

/**
 * The first key of every Coffer job and migration lock: "CofJ". Realtime presence uses
 * "Cofr" (modules/realtime/presence.ts), so the two never collide.
 */
export const JOB_LOCK_NAMESPACE = 0x436f664a;

/** The second key of the migration lock (db/migrate.ts): held while migrations run. */
export const MIGRATION_LOCK_KEY = 0;

/**
 * The second key of each exclusive job's lock. Never renumber one: during a rolling upgrade
 * an old and a new instance run side by side and must agree on who runs what. A new
 * exclusive job (a chain watcher, say) takes the next free number.
 */
export const JOB_LOCK_KEYS = {
  reconciliation: 1,
  'staking-credits': 2,
  'price-sync': 3,
  outbox: 4,
  'clean-up': 5,
  // One watcher per chain (docs/decisions/0021).
  'chain-bitcoin': 6,
  'chain-ethereum': 7,
  'chain-tron': 8,
} as const;

export type ExclusiveJob = keyof typeof JOB_LOCK_KEYS;

/** How often a lock this instance lacks is tried again, and a held one checked. */
export const JOB_LOCK_RETRY_MS = 5_000;
/** A check that takes longer than this counts as a lost connection (and lost locks). */
const CHECK_TIMEOUT_MS = 4_000;
const MAX_RECONNECT_DELAY_MS = 15_000;

type Options = {
  connectionString: string;
  jobs: readonly ExclusiveJob[];
  log: Logger;
  retryMs?: number;
  /** This instance has just taken the job's lock: the job is now its to run. */
  onAcquired?: (job: ExclusiveJob) => void;
};

export type JobLocks = ReturnType<typeof createJobLocks>;

/**
 * The session advisory locks that decide which instance runs each exclusive job, all held on
 * one dedicated connection (never a pool's: a pooled connection goes back to the pool and
 * its session locks with it) that is kept for as long as the instance lives.
 *
 * Failover: when an instance dies, PostgreSQL ends its session and frees its locks, and the
 * next try of another instance (every `retryMs`) takes them. After `kill -9` the kernel closes
 * the TCP connection at once, so that is one retry away. If the network drops silently
 * instead, nothing is closed: the server notices through TCP keepalives, which this
 * connection sets short (idle 10 s, then 3 probes 5 s apart: the session ends within about
 * 25 s), and the instance itself notices sooner, as its check every `retryMs` times out
 * after 4 s, and stops running the jobs at once: it stops before anyone else can start.
 */
export function createJobLocks(opts: Options) {
  const retryMs = opts.retryMs ?? JOB_LOCK_RETRY_MS;
  const held = new Set<ExclusiveJob>();
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  let failures = 0;
  let nextConnectAt = 0;

  /** The connection is gone or unusable: whatever it held is no longer ours. */
  function broken(c: pg.Client, err: unknown) {
    if (client !== c) return;
    client = null;
    if (!stopped) {
      opts.log.warn(
        { err: String(err), jobs: [...held] },
        'job lock connection lost; exclusive jobs stop here until their locks are taken again',
      );
    }
    held.clear();
    failures += 1;
    nextConnectAt = Date.now() + Math.min(MAX_RECONNECT_DELAY_MS, 500 * 2 ** (failures - 1));
    // Not awaited: on a dead network `end` may wait for the kernel to give up.
    c.end().catch(() => {});
  }

  async function connect(): Promise<pg.Client | null> {
    const c = new pg.Client({
      connectionString: opts.connectionString,
      application_name: 'coffer-job-locks',
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      query_timeout: CHECK_TIMEOUT_MS,
      connectionTimeoutMillis: CHECK_TIMEOUT_MS,
    });
    c.on('error', (err) => broken(c, err));
    c.on('end', () => broken(c, new Error('connection ended')));
    client = c;
    try {
      await c.connect();
      // The server's side of the keepalives: a silently dead instance's session (and its
      // locks) ends in about 25 s instead of the kernel's default of two hours and more.
      await c.query(
        'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3',
      );
      failures = 0;
      return c;
    } catch (err) {
      broken(c, err);
      return null;
    }
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    let c = client;
    if (!c) {
      if (Date.now() < nextConnectAt) return;
      c = await connect();
      if (!c) return;
    }
    const wanted = opts.jobs.filter((job) => !held.has(job));
    try {
      if (wanted.length === 0) {
        // Everything is ours: only check that the connection (and so the locks) still is.
        await c.query('SELECT 1');
        return;
      }
      const { rows } = await c.query<{ key: number; ok: boolean }>(
        'SELECT k AS key, pg_try_advisory_lock($1, k) AS ok FROM unnest($2::int[]) AS k',
        [JOB_LOCK_NAMESPACE, wanted.map((job) => JOB_LOCK_KEYS[job])],
      );
      if (client !== c) return;
      for (const job of wanted) {
        if (rows.some((r) => r.key === JOB_LOCK_KEYS[job] && r.ok)) {
          held.add(job);
          opts.log.info({ job }, 'job lock taken: this instance runs the job');
          opts.onAcquired?.(job);
        }
      }
    } catch (err) {
      broken(c, err);
    }
  }

  /** One tick at a time; `stop` waits for the one under way. */
  function runTick(): Promise<void> {
    running ??= tick().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    /** Connects and makes the first try; later tries run every `retryMs`. */
    async start(): Promise<void> {
      timer = setInterval(() => void runTick(), retryMs);
      timer.unref();
      await runTick();
    },

    /** Whether this instance may run the job now. */
    holds: (job: ExclusiveJob) => held.has(job),

    /** The exclusive jobs this instance runs now (for health and metrics). */
    held: (): ExclusiveJob[] => opts.jobs.filter((job) => held.has(job)),

    /** Releases every lock and closes the connection: another instance takes over at once. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      const c = client;
      client = null;
      held.clear();
      if (!c) return;
      await c.query('SELECT pg_advisory_unlock_all()').catch(() => {});
      // Bounded: on a dead network the goodbye may never be answered, and the server frees
      // the locks when its keepalives end the session anyway.
      await Promise.race([
        c.end().catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, CHECK_TIMEOUT_MS).unref()),
      ]);
    },
  };
}
