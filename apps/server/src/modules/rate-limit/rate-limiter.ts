import type pg from 'pg';
import { AppError } from '../../lib/app-error';

export type Limit = { key: string; max: number; windowSeconds: number };

/**
 * Failure counters in PostgreSQL, so that every instance sees the same count. A window
 * ends by itself: an attacker elsewhere can delay a customer by minutes, never lock them
 * out for good.
 */
export function createRateLimiter(pool: pg.Pool) {
  return {
    /** Refuses when any of the limits has been reached in its current window. */
    async assertAllowed(limits: Limit[]): Promise<void> {
      if (limits.length === 0) return;
      const { rows } = await pool.query<{ key: string; count: number; retry: number }>(
        `SELECT key, count, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => w.secs) - now())))::int AS retry
           FROM rate_limits r
           JOIN unnest($1::text[], $2::int[]) AS w(k, secs) ON w.k = r.key
          WHERE window_start + make_interval(secs => w.secs) > now()`,
        [limits.map((l) => l.key), limits.map((l) => l.windowSeconds)],
      );
      for (const row of rows) {
        const limit = limits.find((l) => l.key === row.key);
        if (limit && row.count >= limit.max) {
          const minutes = Math.max(1, Math.ceil(row.retry / 60));
          throw new AppError(
            'RATE_LIMITED',
            `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
            row.retry,
          );
        }
      }
    },

    /** Counts one attempt against each limit, starting a new window where the old one ended. */
    async hit(limits: Limit[]): Promise<void> {
      for (const l of limits) {
        await pool.query(
          `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, now(), 1)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN rate_limits.window_start + make_interval(secs => $2) <= now() THEN 1 ELSE rate_limits.count + 1 END,
             window_start = CASE WHEN rate_limits.window_start + make_interval(secs => $2) <= now() THEN now() ELSE rate_limits.window_start END`,
          [l.key, l.windowSeconds],
        );
      }
    },

    async clear(keys: string[]): Promise<void> {
      await pool.query('DELETE FROM rate_limits WHERE key = ANY($1::text[])', [keys]);
    },

    async deleteStale(): Promise<void> {
      await pool.query("DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'");
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

const FIFTEEN_MINUTES = 15 * 60;

/** The limits of each guarded action, per account and per address. */
export const LIMITS = {
  signIn: (email: string, ip: string): Limit[] => [
    { key: `sign-in:account:${email}`, max: 10, windowSeconds: FIFTEEN_MINUTES },
    { key: `sign-in:ip:${ip}`, max: 30, windowSeconds: FIFTEEN_MINUTES },
  ],
  twoFactor: (userId: string, ip: string): Limit[] => [
    { key: `2fa:account:${userId}`, max: 5, windowSeconds: FIFTEEN_MINUTES },
    { key: `2fa:ip:${ip}`, max: 30, windowSeconds: FIFTEEN_MINUTES },
  ],
  phrase: (userId: string, ip: string): Limit[] => [
    { key: `phrase:account:${userId}`, max: 5, windowSeconds: FIFTEEN_MINUTES },
    { key: `phrase:ip:${ip}`, max: 20, windowSeconds: FIFTEEN_MINUTES },
  ],
  /** The reset form names no account, so only the address can be counted before the check. */
  passwordReset: (ip: string): Limit[] => [
    { key: `reset:ip:${ip}`, max: 10, windowSeconds: FIFTEEN_MINUTES },
  ],
  password: (userId: string, ip: string): Limit[] => [
    { key: `password:account:${userId}`, max: 10, windowSeconds: FIFTEEN_MINUTES },
    { key: `password:ip:${ip}`, max: 30, windowSeconds: FIFTEEN_MINUTES },
  ],
  mail: (email: string, ip: string): Limit[] => [
    { key: `mail:account:${email}`, max: 5, windowSeconds: 3600 },
    { key: `mail:ip:${ip}`, max: 20, windowSeconds: 3600 },
  ],
};
