import { onTransactionRetry, type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import { type Counted, rateLimitRepository as repo } from './rate-limit.repository';

export type Limit = { key: string; max: number; windowSeconds: number };

/** One attempt that was let through and counted. */
export type Attempt = {
  /**
   * Takes the attempt off its counts again: a right password, code or phrase is no guess.
   * Only the window it was counted in is touched, and at most once.
   */
  release(): Promise<void>;
};

const NOTHING_COUNTED: Attempt = { release: async () => {} };

/**
 * The one order every statement locks counters in (counting, and taking a count back):
 * JavaScript's, not the database's collation, which may sort keys differently.
 */
function inKeyOrder(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * Attempt counters in PostgreSQL, so that every instance sees the same count. An attempt is
 * counted BEFORE it is checked, in one transaction that holds the row lock of each of its
 * counters: parallel attempts queue on that lock, so the limit holds however many arrive at
 * once, and an attempt over the limit is refused without its secret ever being compared. A
 * window ends by itself: an attacker elsewhere can delay a customer by minutes, never lock
 * them out for good.
 *
 * The limiter has a pool of its own (`pool` is only for it): a step-up is counted inside a
 * money transaction that holds a connection of the main pool and the customer's lock, and
 * with every main connection held by requests queued on that lock, a count that needed one
 * of them would wait for ever. Its own connections are only ever held for one short count.
 */
export function createRateLimiter(pool: pg.Pool) {
  async function countAll(client: TxClient, limits: Limit[], weight: number) {
    const counted: Counted[] = [];
    // Always in key order, so two attempts sharing counters can never wait on each other.
    for (const l of [...limits].sort(inKeyOrder)) {
      const row = await repo.count(client, l.key, l.windowSeconds, weight);
      if (row) counted.push(row);
    }
    return counted;
  }

  return {
    /**
     * Counts one attempt (or `weight` of them, e.g. the files of one upload) against every
     * limit, or refuses it with 429 and the time to wait, counting nothing. Call it before
     * the secret is checked; `release()` the attempt when it turns out right.
     */
    async consume(limits: Limit[], weight = 1): Promise<Attempt> {
      if (limits.length === 0 || weight <= 0) return NOTHING_COUNTED;
      // A refused attempt leaves every counter as it found it: its refusal, thrown inside
      // the transaction, rolls the counts back.
      const counted = await withTransaction(pool, async (client) => {
        const all = await countAll(client, limits, weight);
        const over = all.filter((c) => c.count > (limits.find((l) => l.key === c.key)?.max ?? 0));
        if (over.length > 0) {
          const retry = Math.max(1, ...over.map((c) => c.retry));
          const minutes = Math.ceil(retry / 60);
          throw new AppError(
            'RATE_LIMITED',
            `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
            retry,
          );
        }
        return all;
      });
      let released = false;
      const attempt: Attempt = {
        async release() {
          if (released) return;
          released = true;
          await repo.uncount(pool, [...counted].sort(inKeyOrder), weight);
        },
      };
      // Counted on the limiter's own connection, so a caller's transaction that deadlocks
      // and is run again (db/tx.ts) would count this attempt a second time: its try takes
      // the count back first. A try that fails for any other reason keeps it.
      onTransactionRetry(attempt.release);
      return attempt;
    },

    /** Closes the limiter's connections, when the server stops. */
    async close(): Promise<void> {
      await pool.end();
    },

    /** Ends the counts of these keys at once (e.g. an account's, after a right answer). */
    async clear(keys: string[]): Promise<void> {
      await repo.clear(pool, keys);
    },

    async deleteStale(): Promise<void> {
      await repo.deleteStale(pool);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

const FIFTEEN_MINUTES = 15 * 60;

/** The limits of each guarded action, per account and per address. */
export const LIMITS = {
  /**
   * A sign-in from a browser holding the account's device token (sign-in-devices.ts) counts
   * on that token alone: neither strangers' guesses at the account nor others sharing the
   * owner's address (an office, a mobile carrier) can lock it. Any other sign-in counts per
   * account and per address. The first limit is the one a right sign-in clears.
   */
  signIn: (email: string, ip: string, device: string | null = null): Limit[] =>
    device
      ? [{ key: `sign-in:device:${device}`, max: 5, windowSeconds: FIFTEEN_MINUTES }]
      : [
          { key: `sign-in:account:${email}`, max: 10, windowSeconds: FIFTEEN_MINUTES },
          { key: `sign-in:ip:${ip}`, max: 30, windowSeconds: FIFTEEN_MINUTES },
        ],
  /** Second-factor codes at sign-in (and turning 2FA on): what a wrong one locks is sign-in. */
  twoFactor: (userId: string, ip: string): Limit[] => [
    { key: `2fa:account:${userId}`, max: 5, windowSeconds: FIFTEEN_MINUTES },
    { key: `2fa:ip:${ip}`, max: 30, windowSeconds: FIFTEEN_MINUTES },
  ],
  /**
   * A step-up's second factor (a payout, a staff write): counted apart from sign-in, so
   * someone fumbling step-up codes locks only further step-ups, never their own sign-in
   * (nor does a locked sign-in stop a signed-in session's step-ups). The same numbers: a
   * guesser holding a session gets no more tries than one at the sign-in form.
   */
  stepUp: (userId: string, ip: string): Limit[] => [
    { key: `step-up:account:${userId}`, max: 5, windowSeconds: FIFTEEN_MINUTES },
    { key: `step-up:ip:${ip}`, max: 30, windowSeconds: FIFTEEN_MINUTES },
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
  /** Files a customer sends (identity documents, chat attachments), each file counted. */
  upload: (userId: string): Limit[] => [
    { key: `upload:account:${userId}`, max: 30, windowSeconds: 10 * 60 },
  ],
};
