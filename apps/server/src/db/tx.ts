import { AsyncLocalStorage } from 'node:async_hooks';
import { randomInt } from 'node:crypto';
import type pg from 'pg';

/** A connection inside an open database transaction. */
export type TxClient = pg.PoolClient;

/**
 * PostgreSQL's "try the transaction again" answers: 40P01 deadlock detected (it chose this
 * transaction as the victim) and 40001 serialization failure. Nothing of the transaction
 * was kept, so running it again from the start is safe.
 */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

/** Tries of one transaction before its error reaches the caller (then answered 503). */
export const TRANSACTION_ATTEMPTS = 4;

/** Whether an error is a deadlock or serialization failure: the transaction may be run again. */
export function isRetryableTransactionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code, cause } = err as { code?: unknown; cause?: unknown };
  if (typeof code === 'string' && RETRYABLE_SQLSTATES.has(code)) return true;
  return cause !== undefined && cause !== err && isRetryableTransactionError(cause);
}

/**
 * What a transaction's try did outside the transaction, undone if the try is given up; and
 * what is to be done once it has ended.
 */
type Try = { undo: (() => Promise<void>)[]; after: (() => Promise<void>)[] };
const currentTry = new AsyncLocalStorage<Try>();

/**
 * Registers how to undo something done outside the current transaction (on another
 * connection, e.g. a rate-limit attempt counted on the limiter's own pool) should this try
 * fail with a deadlock or serialization failure: the retry does it again, so without the
 * undo it would count twice; and if every try fails, the request failed through no fault of
 * the caller's. Outside `withTransaction` it does nothing.
 */
export function onTransactionRetry(undo: () => Promise<void>): void {
  currentTry.getStore()?.undo.push(undo);
}

/**
 * Runs `work` once the current transaction has ended, committed or rolled back, and its
 * connection is back in the pool; `withTransaction` waits for it before it returns or
 * throws. For a write that must outlast the transaction's rollback and needs a connection
 * of its own (a refused step-up in the security log): asked for while the transaction still
 * held its connection and its locks, it could wait for ever on a pool that parallel
 * transactions, waiting for those locks, had emptied. Outside `withTransaction` it runs at
 * once. Its failure is the work's own business: it is not thrown to the caller.
 */
export async function afterTransaction(work: () => Promise<void>): Promise<void> {
  const thisTry = currentTry.getStore();
  if (thisTry) thisTry.after.push(work);
  else await work().catch(() => {});
}

async function runAfter(thisTry: Try): Promise<void> {
  for (const work of thisTry.after) await work().catch(() => {});
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn` in one database transaction: committed when it returns, rolled back when it
 * throws. Money movements use this so a ledger row and its balance change land together.
 *
 * A try that PostgreSQL ended with a deadlock or a serialization failure is rolled back and
 * run again, up to TRANSACTION_ATTEMPTS tries, after a short random pause (so the two
 * transactions that met do not meet again at once). `fn` must therefore be safe to run
 * again: everything it writes goes through `client` (rolled back with the try), and work
 * on other connections registers its undo with `onTransactionRetry`.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: TxClient) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const thisTry: Try = { undo: [], after: [] };
    const client = await pool.connect();
    let failure: unknown;
    try {
      await client.query('BEGIN');
      const result = await currentTry.run(thisTry, () => fn(client));
      await client.query('COMMIT');
      client.release();
      await runAfter(thisTry);
      return result;
    } catch (err) {
      failure = err;
    }
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    await runAfter(thisTry);
    if (!isRetryableTransactionError(failure)) throw failure;
    // Undone whether or not another try follows: the one that follows does it again.
    for (const undo of thisTry.undo.reverse()) await undo().catch(() => {});
    if (attempt >= TRANSACTION_ATTEMPTS) throw failure;
    await pause(5 + randomInt(20 * attempt + 1));
  }
}
